import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JournalConfig } from '../../../src/config/app-config.js';
import { callTool } from '../../support/mcp.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { startSelfSignedIssuer, type SelfSignedIssuer } from './identity-providers.js';

// Issue 33 §5: a token named "local", or an OAuth sub "local", is not the local operator. Three
// servers share one root and one journal directory: auth none (the operator), tokens, and oauth.
const LOCAL_TOKEN = 'token-named-local-5a1f0c';
const AUDIENCE = 'http://127.0.0.1:8091/mcp';

type Change = { id: string; principal: string; path: string };

describe('principals from tokens and OAuth live apart from the local operator (a journal shared by three servers)', () => {
  let journalBase: string;
  let issuer: SelfSignedIssuer;
  const servers: TestServer[] = [];
  let operator: Client;
  let token: Client;
  let oauth: Client;

  beforeAll(async () => {
    journalBase = await mkdtemp(join(tmpdir(), 'mcp-fs-principal-names-'));
    const journal: JournalConfig = { dir: join(journalBase, 'journal'), maxBytes: 1024 * 1024, maxFileBytes: 64 * 1024, retentionHours: 1 };
    const none = await startTestServer({ journal });
    const roots = [{ name: 'workspace', path: none.rootPath('workspace') }];
    const tokens = await startTestServer({ roots, journal, auth: { mode: 'tokens', tokens: [{ name: 'local', sha256: sha256Hex(LOCAL_TOKEN), readOnly: false }] } });
    issuer = await startSelfSignedIssuer();
    const jwt = await startTestServer({ roots, journal, auth: { mode: 'oauth', oauth: { issuer: issuer.issuer, audience: AUDIENCE, requiredScopes: [] } } });
    servers.push(none, tokens, jwt);
    operator = await none.connect();
    token = await tokens.connect({ bearer: LOCAL_TOKEN });
    oauth = await jwt.connect({ bearer: await issuer.sign({ sub: 'local', aud: AUDIENCE }) });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await issuer?.stop();
    await rm(journalBase, { recursive: true, force: true });
  });

  it("never shows the operator's changes, or their diffs, to token local or OAuth sub local, nor lets either undo them", async () => {
    await callTool(operator, 'write_file', { root: 'workspace', path: 'secret.txt', content: 'the operator wrote this' });
    const [written] = (await callTool(operator, 'list_changes', {})).structured.changes as Change[];
    expect(written).toMatchObject({ principal: 'local', path: 'secret.txt' });

    for (const caller of [token, oauth]) {
      const listed = await callTool(caller, 'list_changes', { diff: true });
      expect(listed.structured.changes).toEqual([]);
      expect(listed.text).not.toContain('the operator wrote this');
      const byId = await callTool(caller, 'undo_changes', { ids: [written.id] });
      expect(byId.structured.results).toEqual([expect.objectContaining({ id: written.id, outcome: 'not_undoable', reason: expect.stringContaining('no such change of yours') })]);
      expect((await callTool(caller, 'undo_changes', { root: 'workspace', path: 'secret.txt', session: 'all' })).structured.results).toEqual([]);
    }
    expect(await readFile(join(servers[0].rootPath('workspace'), 'secret.txt'), 'utf8')).toBe('the operator wrote this');
  });

  it('names them token:local and oauth:local, each sees only its own, and the operator sees all three', async () => {
    await callTool(token, 'write_file', { root: 'workspace', path: 'by-token.txt', content: 't' });
    await callTool(oauth, 'write_file', { root: 'workspace', path: 'by-oauth.txt', content: 'o' });
    const ownOf = async (caller: Client) => ((await callTool(caller, 'list_changes', {})).structured.changes as Change[]).map((change) => [change.principal, change.path]);
    expect(await ownOf(token)).toEqual([['token:local', 'by-token.txt']]);
    expect(await ownOf(oauth)).toEqual([['oauth:local', 'by-oauth.txt']]);
    expect(await ownOf(operator)).toEqual([
      ['oauth:local', 'by-oauth.txt'],
      ['token:local', 'by-token.txt'],
      ['local', 'secret.txt'],
    ]);
  });
});
