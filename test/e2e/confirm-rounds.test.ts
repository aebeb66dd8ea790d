import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { callTool } from '../support/mcp.js';
import { serverParameters } from '../support/stdio-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 30.3 with the journal off (every overwrite is irreversible), asked of 2025 clients through
// elicitation and of 2026-07-28 clients through input-required results with a signed requestState.
type Person = 'accepts' | 'declines' | 'no capability';
const answerOf = (person: Person) => (person === 'accepts' ? { action: 'accept' as const, content: { confirm: true } } : { action: 'decline' as const });

describe('asking with the journal off, both eras, over Streamable HTTP', () => {
  let server: TestServer;
  const closers: (() => Promise<void>)[] = [];
  const file = () => join(server.rootPath('workspace'), 'kept.txt');
  // The journal is off on purpose: this is what the test is about.
  beforeAll(async () => {
    server = await startTestServer({ journal: false, confirm: { enabled: true, timeoutSeconds: 5 } });
  });
  beforeEach(() => writeFile(file(), 'original'));
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  afterAll(() => server.stop());

  async function legacy(person: Person): Promise<{ client: Client; questions: string[] }> {
    const questions: string[] = [];
    const client = new Client({ name: `legacy-${person}`, version: '1' }, person === 'no capability' ? {} : { capabilities: { elicitation: {} } });
    if (person !== 'no capability') {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        questions.push(request.params.message);
        return answerOf(person);
      });
    }
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    closers.push(() => client.close());
    return { client, questions };
  }

  async function modern(person: Person): Promise<{ client: ModernClient; questions: string[] }> {
    const questions: string[] = [];
    const client = new ModernClient(
      { name: `modern-${person}`, version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(person === 'no capability' ? {} : { capabilities: { elicitation: {} } }) },
    );
    if (person !== 'no capability') {
      client.setRequestHandler('elicitation/create', (request) => {
        questions.push((request.params as { message: string }).message);
        return answerOf(person);
      });
    }
    await client.connect(new ModernTransport(new URL(server.url)));
    closers.push(() => client.close());
    return { client, questions };
  }

  const QUESTION = 'Change kept.txt in root workspace? This cannot be undone: the change journal is off. Your answer covers every such change of this call.';
  const DECLINED = 'DECLINED: the change was not made, the person declined it: kept.txt (root: workspace) could not be undone, since the change journal is off';
  const write = { root: 'workspace', path: 'kept.txt', content: 'replaced' };

  it('2025 client that accepts: asked once, the file is replaced', async () => {
    const { client, questions } = await legacy('accepts');
    expect((await callTool(client, 'write_file', write)).isError).toBe(false);
    expect(questions).toEqual([QUESTION]);
    expect(await readFile(file(), 'utf8')).toBe('replaced');
  });

  it('2025 client that declines: DECLINED, the file is unchanged; a new file is never asked about', async () => {
    const { client, questions } = await legacy('declines');
    const result = await callTool(client, 'write_file', write);
    expect(result.text).toBe(DECLINED);
    expect(await readFile(file(), 'utf8')).toBe('original');
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'fresh.txt', content: 'new' })).isError).toBe(false);
    expect(questions).toEqual([QUESTION]);
  });

  it.each([['2025', legacy], ['2026-07-28', modern]] as const)('%s client without the capability: changed as today, never asked', async (_era, connect) => {
    const { client } = await connect('no capability');
    const result = await client.callTool({ name: 'write_file', arguments: write });
    expect(result.isError).toBeFalsy();
    expect(await readFile(file(), 'utf8')).toBe('replaced');
  });

  it('2026-07-28 client that accepts: input-required, the client retries with the answer, the file is replaced', async () => {
    const { client, questions } = await modern('accepts');
    const result = await client.callTool({ name: 'write_file', arguments: write });
    expect(result.isError).toBeFalsy();
    expect(questions).toEqual([QUESTION]);
    expect(await readFile(file(), 'utf8')).toBe('replaced');
  });

  it('2026-07-28 client that declines: DECLINED, the file is unchanged', async () => {
    const { client, questions } = await modern('declines');
    const result = await client.callTool({ name: 'write_file', arguments: write });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: DECLINED }]);
    expect(questions).toEqual([QUESTION]);
    expect(await readFile(file(), 'utf8')).toBe('original');
  });

  it('a forged, or another call\'s, requestState is refused and nothing changes', async () => {
    const ENVELOPE = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const post = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'write_file' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_file', arguments: args, _meta: ENVELOPE, ...extra } }),
      });
      const text = await response.text();
      const json = text.trimStart().startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('\n').find((line) => line.startsWith('data:'))!.slice(5));
      return json.result as { resultType?: string; requestState?: string; isError?: boolean; content?: { text: string }[] };
    };
    const first = await post(write);
    expect(first.resultType).toBe('input_required');
    expect(typeof first.requestState).toBe('string');
    const accept = { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } };
    // The same approval replayed for other arguments (another file's content), then a forged state.
    for (const [args, state] of [
      [{ ...write, content: 'something else' }, first.requestState],
      [write, `${first.requestState!.slice(0, -4)}AAAA`],
      [write, 'v1.e30.AAAA'],
    ] as const) {
      const refused = await post(args, { ...accept, requestState: state });
      expect(refused.isError).toBe(true);
      expect(refused.content?.[0].text).toBe('INVALID_ARGUMENT: requestState refused, it was not issued by this server for this call: nothing was changed; call the tool again without it');
      expect(await readFile(file(), 'utf8')).toBe('original');
    }
    const honest = await post(write, { ...accept, requestState: first.requestState });
    expect(honest.isError).toBeFalsy();
    expect(await readFile(file(), 'utf8')).toBe('replaced');
  });
});

describe('asking a 2026-07-28 client over stdio (the built server, journal on, a before-image past max_file_bytes)', () => {
  let dir = '';
  let config = '';
  const clients: ModernClient[] = [];
  const BIG = 'more than the journal keeps\n'.repeat(4);
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-confirm-modern-stdio-')));
    await mkdir(join(dir, 'workspace'));
    config = [
      'roots:',
      `  - name: workspace\n    path: ${JSON.stringify(join(dir, 'workspace'))}\n    allowed_tools: ["*"]`,
      `journal:\n  dir: ${JSON.stringify(join(dir, 'journal'))}\n  max_file_bytes: 64`,
      '',
    ].join('\n');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([['accepts', 'replaced', false], ['declines', BIG, true]] as const)('a person who %s', async (person, expected, isError) => {
    await writeFile(join(dir, 'workspace', 'big.txt'), BIG);
    const transport = new ModernStdioTransport(await serverParameters(dir, config));
    const client = new ModernClient({ name: 'modern-stdio-person', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      questions.push((request.params as { message: string }).message);
      return answerOf(person);
    });
    await client.connect(transport);
    clients.push(client);
    const result = await client.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'big.txt', content: 'replaced' } });
    expect(result.isError === true).toBe(isError);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('big.txt in root workspace');
    expect(await readFile(join(dir, 'workspace', 'big.txt'), 'utf8')).toBe(expected);
  });
});
