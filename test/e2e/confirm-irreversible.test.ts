import { mkdtemp, readFile, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 30.3: before a change the journal could not undo (here a before-image over journal.max_file_bytes,
// 64 bytes), the server asks the client's person through elicitation; confirm.timeout_s is 1 s here.
const BIG = 'a line of a file larger than the journal keeps\n'.repeat(3);
type Person = 'accepts' | 'declines' | 'never answers' | 'no capability';

/** A client whose person answers every question as `person` says, keeping the questions asked. */
async function personClient(transport: Transport, person: Person): Promise<{ client: Client; questions: ElicitRequest['params'][] }> {
  const questions: ElicitRequest['params'][] = [];
  const client = new Client({ name: `person-${person}`, version: '1' }, person === 'no capability' ? {} : { capabilities: { elicitation: {} } });
  if (person !== 'no capability') {
    client.setRequestHandler(ElicitRequestSchema, (request, extra): Promise<ElicitResult> => {
      questions.push(request.params);
      if (person === 'accepts') return Promise.resolve({ action: 'accept', content: { confirm: true } });
      if (person === 'declines') return Promise.resolve({ action: 'decline' });
      // Never answers: the server gives up after confirm.timeout_s and cancels the request.
      return new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
    });
  }
  await client.connect(transport);
  return { client, questions };
}

/** What each kind of person sees when a write would replace big.txt, whose content the journal cannot keep. */
function behaves(connect: (person: Person) => Promise<{ client: Client; questions: ElicitRequest['params'][] }>, workspace: () => string) {
  const big = () => join(workspace(), 'big.txt');

  it('a person who accepts: asked once, naming the root, the path and what would be lost; the change is made', async () => {
    await writeFile(big(), BIG);
    const { client, questions } = await connect('accepts');
    const result = await callTool(client, 'write_file', { root: 'workspace', path: 'big.txt', content: 'replaced' });
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({ undoable: false });
    expect(await readFile(big(), 'utf8')).toBe('replaced');
    expect(questions).toHaveLength(1);
    expect(questions[0].message).toContain('big.txt in root workspace');
    expect(questions[0].message).toContain(`larger than the journal keeps (${BIG.length} bytes > journal.max_file_bytes 64)`);
    expect(questions[0]).toMatchObject({ mode: 'form', requestedSchema: { properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } });
  });

  it('an undoable change is never asked about', async () => {
    const { client, questions } = await connect('declines');
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'small.txt', content: 'small' })).isError).toBe(false);
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'small.txt', content: 'small again' })).isError).toBe(false);
    expect(questions).toEqual([]);
  });

  it('a person who declines: DECLINED naming root, path and reason; the file is unchanged', async () => {
    await writeFile(big(), BIG);
    const { client, questions } = await connect('declines');
    const result = await callTool(client, 'remove_file', { root: 'workspace', path: 'big.txt' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^DECLINED: the change was not made, the person declined it: big\.txt \(root: workspace\) could not be undone, since the file was larger than the journal keeps/);
    expect(questions).toHaveLength(1);
    expect(await readFile(big(), 'utf8')).toBe(BIG);
  });

  it('a person who never answers: DECLINED once confirm.timeout_s has passed; the file is unchanged', async () => {
    await writeFile(big(), BIG);
    const { client, questions } = await connect('never answers');
    const result = await callTool(client, 'write_file', { root: 'workspace', path: 'big.txt', content: 'replaced' });
    expect(result.text).toMatch(/^DECLINED: the change was not made, nobody answered the question in time \(confirm\.timeout_s\): big\.txt \(root: workspace\)/);
    expect(questions).toHaveLength(1);
    expect(await readFile(big(), 'utf8')).toBe(BIG);
  });

  it('a client without the elicitation capability: today\'s behaviour, made without asking, said not undoable', async () => {
    await writeFile(big(), BIG);
    const { client } = await connect('no capability');
    const result = await callTool(client, 'write_file', { root: 'workspace', path: 'big.txt', content: 'replaced' });
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({ undoable: false });
    expect(await readFile(big(), 'utf8')).toBe('replaced');
  });
}

describe('asking before what cannot be taken back, over Streamable HTTP', () => {
  let server: TestServer;
  const clients: Client[] = [];
  const journal = join(tmpdir(), `mcp-fs-confirm-${process.pid}`);
  beforeAll(async () => {
    server = await startTestServer({ journal: { dir: journal, maxBytes: 1024 * 1024, maxFileBytes: 64, retentionHours: 1 }, confirm: { enabled: true, timeoutSeconds: 1 } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await server.stop();
    await rm(journal, { recursive: true, force: true });
  });
  behaves(async (person) => {
    const made = await personClient(new StreamableHTTPClientTransport(new URL(server.url)), person);
    clients.push(made.client);
    return made;
  }, () => server.rootPath('workspace'));
});

describe('asking before what cannot be taken back, over stdio (the built server)', () => {
  let dir = '';
  let workspace = '';
  const clients: Client[] = [];
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-confirm-stdio-')));
    workspace = join(dir, 'workspace');
    await mkdir(workspace);
    const config = [
      'roots:',
      `  - name: workspace\n    path: ${JSON.stringify(workspace)}\n    allowed_tools: ["*"]`,
      `journal:\n  dir: ${JSON.stringify(join(dir, 'journal'))}\n  max_file_bytes: 64`,
      'confirm:\n  timeout_s: 1',
      '',
    ].join('\n');
    await writeFile(join(dir, 'config.yaml'), config);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  behaves(async (person) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
      env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
      stderr: 'ignore',
    });
    const made = await personClient(transport, person);
    clients.push(made.client);
    return made;
  }, () => workspace);
});

describe('confirm.enabled false (unattended deployments)', () => {
  it('never asks: the change is made as without the capability', async () => {
    const journal = join(tmpdir(), `mcp-fs-confirm-off-${process.pid}`);
    const server = await startTestServer({ journal: { dir: journal, maxBytes: 1024 * 1024, maxFileBytes: 64, retentionHours: 1 }, confirm: { enabled: false, timeoutSeconds: 1 } });
    const { client, questions } = await personClient(new StreamableHTTPClientTransport(new URL(server.url)), 'declines');
    try {
      await writeFile(join(server.rootPath('workspace'), 'big.txt'), BIG);
      const result = await callTool(client, 'write_file', { root: 'workspace', path: 'big.txt', content: 'replaced' });
      expect(result.isError).toBe(false);
      expect(questions).toEqual([]);
      expect(await readFile(join(server.rootPath('workspace'), 'big.txt'), 'utf8')).toBe('replaced');
    } finally {
      await client.close();
      await server.stop();
      await rm(journal, { recursive: true, force: true });
    }
  });
});
