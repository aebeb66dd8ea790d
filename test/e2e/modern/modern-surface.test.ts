import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { modernStdioClient, stdioClient } from '../../support/stdio-client.js';

/** Sparse: no disk used, yet hashing it takes long enough for progress and a cancel. */
const BIG_FILE_BYTES = 4 * 1024 ** 3;

async function seed(dir: string): Promise<void> {
  await writeFile(join(dir, 'notes.txt'), 'a note\n');
  await mkdir(join(dir, 'docs'));
  await writeFile(join(dir, 'docs', 'guide.md'), '# guide\n');
  await writeFile(join(dir, 'big.bin'), '');
  await truncate(join(dir, 'big.bin'), BIG_FILE_BYTES);
}

type AnyClient = ModernClient | LegacyClient;

/** Resources, templates, reads, not found and completions: the same answers for both generations. */
async function surfaceOf(client: AnyClient) {
  const listed = await client.listResources();
  const templates = await client.listResourceTemplates();
  const read = await client.readResource({ uri: 'mcpfs://workspace/notes.txt' });
  const missing = await client.readResource({ uri: 'mcpfs://workspace/missing.txt' }).then(
    () => undefined,
    (error: { code?: number; data?: unknown }) => ({ code: error.code, data: error.data }),
  );
  const completion = await client.complete({
    ref: { type: 'ref/resource', uri: templates.resourceTemplates[0].uriTemplate },
    argument: { name: 'path', value: 'do' },
    context: { arguments: { root: 'workspace' } },
  });
  return {
    resources: listed.resources.map((resource) => resource.uri).sort(),
    templates: templates.resourceTemplates.map((template) => template.uriTemplate),
    read: read.contents.map((content) => ('text' in content ? content.text : undefined)),
    missing,
    completion: completion.completion.values,
  };
}

/** hash_file with progress; the call is aborted after the second report, and the next call is answered. */
async function progressThenCancel(client: ModernClient): Promise<number[]> {
  const reports: number[] = [];
  const controller = new AbortController();
  const call = client.callTool(
    { name: 'hash_file', arguments: { root: 'workspace', path: 'big.bin', algorithm: 'sha256' } },
    {
      signal: controller.signal,
      onprogress: (progress) => {
        reports.push(progress.progress);
        if (reports.length === 2) controller.abort('test cancels');
      },
    },
  );
  await expect(call).rejects.toBeDefined();
  const next = await client.callTool({ name: 'read_file', arguments: { root: 'workspace', path: 'notes.txt' } });
  expect((next.structuredContent as { content: string }).content).toBe('a note\n');
  return reports;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 25) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('2026-07-28 clients get every resource, template, completion, progress and cancellation (HTTP)', () => {
  let server: TestServer;
  let modern: ModernClient;
  let legacy: LegacyClient;

  beforeAll(async () => {
    server = await startTestServer();
    await seed(server.rootPath('workspace'));
    modern = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernHttpTransport(new URL(server.url)));
    legacy = await server.connect();
  });
  afterAll(async () => {
    await modern?.close();
    await server?.stop();
  });

  it('answers resources, templates, reads and completions as it answers a 2025 session', async () => {
    const modernSurface = await surfaceOf(modern);
    expect(modernSurface).toEqual(await surfaceOf(legacy));
    expect(modernSurface.read).toEqual(['a note\n']);
    expect(modernSurface.missing).toEqual({ code: -32602, data: { uri: 'mcpfs://workspace/missing.txt' } });
    expect(modernSurface.completion).toContain('docs/');
  });

  it("logs a failed call to the client at the level the request names in _meta, and stays silent when it names none", async () => {
    const messages: unknown[] = [];
    modern.setNotificationHandler('notifications/message', (notification) => void messages.push(notification.params));
    const missing = { root: 'workspace', path: 'missing.txt' };
    const silent = await modern.callTool({ name: 'read_file', arguments: missing });
    expect(silent.isError).toBe(true);
    expect(messages).toEqual([]);
    const logged = await modern.callTool({ name: 'read_file', arguments: missing, _meta: { [LOG_LEVEL_META_KEY]: 'warning' } });
    expect(logged.isError).toBe(true);
    expect(messages).toEqual([
      { level: 'warning', logger: 'mcp-filesystem', data: { event: 'tool_call_failed', tool: 'read_file', error_code: 'NOT_FOUND', message: expect.stringContaining('missing.txt') } },
    ]);
  });

  it('sends progress on the request stream, and closing the stream cancels the call', async () => {
    const reports = await progressThenCancel(modern);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports[1]).toBeGreaterThan(reports[0]);
    await eventually(
      () => server.logger.withMessage('tool call').some((entry) => entry.fields.tool === 'hash_file' && entry.fields.outcome === 'cancelled'),
      'hash_file logged as cancelled',
    );
  });
});

describe('2026-07-28 clients get the same over stdio (cancellation by notifications/cancelled)', () => {
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfs-modern-surface-'));
    await mkdir(join(dir, 'workspace'));
    await seed(join(dir, 'workspace'));
    config = ['roots:', '  - name: workspace', `    path: ${JSON.stringify(join(dir, 'workspace'))}`, '    allowed_tools: ["*"]', `journal: { dir: ${JSON.stringify(join(dir, 'journal'))} }`, ''].join('\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answers resources, templates, reads, completions, progress and cancellation', async () => {
    const logLines: string[] = [];
    const modern = await modernStdioClient(dir, config, { pin: '2026-07-28' }, (line) => logLines.push(line));
    const legacy = await stdioClient(dir, config);
    try {
      const modernSurface = await surfaceOf(modern);
      expect(modernSurface).toEqual(await surfaceOf(legacy));
      expect(modernSurface.read).toEqual(['a note\n']);
      const reports = await progressThenCancel(modern);
      expect(reports.length).toBeGreaterThanOrEqual(2);
      // The server stopped hashing: its call log says the call ended cancelled, not that it ran on.
      await eventually(
        () => logLines.some((line) => line.includes('"tool call"') && line.includes('"hash_file"') && line.includes('"cancelled"')),
        'hash_file logged as cancelled over stdio',
      );
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});
