import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../support/raw-mcp.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { handleOf, modernCall, modernHttpClient } from '../../support/modern-calls.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { modernStdioClient } from '../../support/stdio-client.js';

// Issue 29 §2: a 2026-07-28 client has no session; its editor state lives under a handle the server
// mints and the model passes back. Two principals (static tokens) on one server.
const ALICE = 'alice-token-3f9c2d';
const BOB = 'bob-token-8e1a7b';

const modernClient = (url: string, bearer: string) => modernHttpClient(url, bearer, 'handles-test');

describe('state handles for 2026-07-28 clients over HTTP', () => {
  let server: TestServer;
  let alice: ModernClient;
  let bob: ModernClient;
  let root: string;

  beforeAll(async () => {
    server = await startTestServer({
      auth: { mode: 'tokens', tokens: [{ name: 'alice', sha256: sha256Hex(ALICE), readOnly: false }, { name: 'bob', sha256: sha256Hex(BOB), readOnly: false }] },
    });
    root = server.rootPath('workspace');
    alice = await modernClient(server.url, ALICE);
    bob = await modernClient(server.url, BOB);
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await server?.stop();
  });

  it('mints a handle on the first editor call and keeps the view under it, on separate requests', async () => {
    await writeFile(join(root, 'notes.txt'), 'alpha\nbeta\n');
    const view = await modernCall(alice, 'view', { path: '/workspace/notes.txt' });
    expect(view.isError).toBe(false);
    const handle = handleOf(view);
    expect(handle).toMatch(/^h_[A-Za-z0-9_-]{32}$/);
    expect(view.texts.at(-1)).toContain('pass it as `handle`');

    const edit = await modernCall(alice, 'str_replace', { path: '/workspace/notes.txt', old_str: 'alpha', new_str: 'ALPHA', handle });
    expect({ isError: edit.isError, handle: edit.structured?.handle }).toEqual({ isError: false, handle });
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('ALPHA\nbeta\n');

    // The stale-view guard, exactly as for a session: a change on disk after the view refuses the edit.
    await writeFile(join(root, 'notes.txt'), 'changed\nbeta\n');
    const stale = await modernCall(alice, 'str_replace', { path: '/workspace/notes.txt', old_str: 'beta', new_str: 'BETA', handle });
    expect(stale.text).toMatch(/^FILE_CHANGED_SINCE_VIEW: /);
  });

  it('refuses an edit without a current view: a call without a handle is a new conversation', async () => {
    await writeFile(join(root, 'plain.txt'), 'one\n');
    const viewed = handleOf(await modernCall(alice, 'view', { path: '/workspace/plain.txt' }));
    const fresh = await modernCall(alice, 'str_replace', { path: '/workspace/plain.txt', old_str: 'one', new_str: 'two' });
    expect(fresh.text).toMatch(/^FILE_NOT_VIEWED: /);
    expect(handleOf(fresh)).not.toBe(viewed);
    expect(await readFile(join(root, 'plain.txt'), 'utf8')).toBe('one\n');
  });

  it('keeps two conversations of one principal apart: views and working directory', async () => {
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'sub', 'inner.txt'), 'inside\n');
    await writeFile(join(root, 'shared.txt'), 'x\n');
    const first = handleOf(await modernCall(alice, 'view', { path: '/workspace/shared.txt' }));
    const second = handleOf(await modernCall(alice, 'change_directory', { path: '/workspace/sub' }));

    expect((await modernCall(alice, 'file_read', { path: 'inner.txt', handle: second })).text).toContain('inside');
    expect((await modernCall(alice, 'file_read', { path: 'inner.txt', handle: first })).text).toMatch(/^NOT_FOUND: /);
    expect((await modernCall(alice, 'str_replace', { path: '/workspace/shared.txt', old_str: 'x', new_str: 'y', handle: second })).text).toMatch(/^FILE_NOT_VIEWED: /);
    expect((await modernCall(alice, 'str_replace', { path: '/workspace/shared.txt', old_str: 'x', new_str: 'y', handle: first })).isError).toBe(false);

    // The journal names the change after the handle: session "this" is the conversation.
    const mine = await modernCall(alice, 'list_changes', { session: 'this', handle: first });
    expect((mine.structured?.changes as { path: string }[]).map((change) => change.path)).toEqual(['shared.txt']);
    const other = await modernCall(alice, 'list_changes', { session: 'this', handle: second });
    expect(other.structured?.changes).toEqual([]);
  });

  it("refuses another principal's handle with a clear error and leaks nothing of its state", async () => {
    await writeFile(join(root, 'alice.txt'), 'private\n');
    const handle = handleOf(await modernCall(alice, 'view', { path: '/workspace/alice.txt' }));
    const stolen = await modernCall(bob, 'str_replace', { path: '/workspace/alice.txt', old_str: 'private', new_str: 'public', handle });
    expect(stolen).toEqual({
      isError: true,
      text: 'ACCESS_DENIED: handle belongs to another principal; call without `handle` to get your own',
      texts: ['ACCESS_DENIED: handle belongs to another principal; call without `handle` to get your own'],
      structured: undefined,
    });
    expect((await modernCall(bob, 'list_changes', { handle })).text).toMatch(/^ACCESS_DENIED: handle belongs to another principal/);
    expect(await readFile(join(root, 'alice.txt'), 'utf8')).toBe('private\n');
    const unknown = await modernCall(bob, 'view', { path: '/workspace/alice.txt', handle: `h_${'x'.repeat(32)}` });
    expect(unknown.text).toMatch(/^INVALID_ARGUMENT: unknown or expired handle/);
  });

  it('lists the same tools to both eras, `handle` in the editor tools only', async () => {
    const legacy = await server.connect({ bearer: ALICE });
    const modernTools = (await alice.listTools()).tools;
    expect(JSON.stringify(modernTools)).toBe(JSON.stringify((await legacy.listTools()).tools));
    const takesHandle = modernTools.filter((tool) => 'handle' in (tool.inputSchema.properties ?? {})).map((tool) => tool.name);
    expect(takesHandle.sort()).toEqual(['change_directory', 'create_file', 'file_list', 'file_read', 'file_write', 'list_changes', 'review_changes', 'str_replace', 'undo_changes', 'view']);
    // A 2025 session keeps its own session state without a handle.
    await writeFile(join(root, 'legacy.txt'), 'l\n');
    await legacy.callTool({ name: 'view', arguments: { path: '/workspace/legacy.txt' } });
    const edited = await legacy.callTool({ name: 'str_replace', arguments: { path: '/workspace/legacy.txt', old_str: 'l', new_str: 'L' } });
    expect(edited.isError).not.toBe(true);
    expect(edited.structuredContent).not.toHaveProperty('handle');
  });
});

describe('state handles for 2026-07-28 clients over stdio', () => {
  let dir: string;
  let workspace: string;
  let client: ModernClient;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfs-handles-stdio-'));
    workspace = join(dir, 'workspace');
    await mkdir(join(workspace, 'sub'), { recursive: true });
    await writeFile(join(workspace, 'a.txt'), 'one\n');
    await writeFile(join(workspace, 'sub', 'b.txt'), 'two\n');
    client = await modernStdioClient(dir, ['log_level: error', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(workspace)}`, '    allowed_tools: ["*"]', ''].join('\n'));
  });
  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps views and the working directory under the handle, one conversation from another', async () => {
    const first = handleOf(await modernCall(client, 'view', { path: '/workspace/a.txt' }));
    const second = handleOf(await modernCall(client, 'change_directory', { path: '/workspace/sub' }));
    expect((await modernCall(client, 'str_replace', { path: '/workspace/a.txt', old_str: 'one', new_str: 'ONE', handle: second })).text).toMatch(/^FILE_NOT_VIEWED: /);
    expect((await modernCall(client, 'str_replace', { path: '/workspace/a.txt', old_str: 'one', new_str: 'ONE', handle: first })).isError).toBe(false);
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('ONE\n');
    expect((await modernCall(client, 'file_read', { path: 'b.txt', handle: second })).text).toContain('two');
    expect((await modernCall(client, 'file_read', { path: 'b.txt', handle: first })).text).toMatch(/^NOT_FOUND: /);
  });
});
