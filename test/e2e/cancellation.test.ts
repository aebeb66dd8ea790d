import { mkdtemp, realpath, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * A sparse 4 GiB file: no disk is used, yet hashing it takes seconds, long enough for the timer
 * to send progress before the test cancels. The test never waits for it to finish.
 */
const BIG_FILE_BYTES = 4 * 1024 ** 3;

async function seedBigFile(dir: string): Promise<void> {
  const path = join(dir, 'big.bin');
  await writeFile(path, '');
  await truncate(path, BIG_FILE_BYTES);
  await writeFile(join(dir, 'small.txt'), 'still answering\n');
}

/** Polls `check` until it returns something, or fails after a generous bound. */
async function eventually<T>(check: () => T | undefined, what: string): Promise<T> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    const found = check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * hash_file of the big file with a progress callback (the SDK client then sends a progressToken):
 * progress arrives and increases; after the second report the call is aborted (the client sends
 * notifications/cancelled), the call rejects, and the next call is answered.
 */
async function hashThenCancel(client: Client): Promise<Progress[]> {
  const reports: Progress[] = [];
  const controller = new AbortController();
  const call = client.callTool({ name: 'hash_file', arguments: { root: 'workspace', path: 'big.bin', algorithm: 'sha256' } }, undefined, {
    signal: controller.signal,
    onprogress: (progress) => {
      reports.push(progress);
      if (reports.length === 2) controller.abort('test cancels');
    },
  });
  await expect(call).rejects.toBeDefined();
  expect(reports.length).toBeGreaterThanOrEqual(2);
  expect(reports[1].progress).toBeGreaterThan(reports[0].progress);
  expect(reports[0]).toMatchObject({ total: BIG_FILE_BYTES, message: 'bytes hashed' });
  expect(reports[1].progress).toBeLessThan(BIG_FILE_BYTES);

  const next = await callTool(client, 'read_file', { root: 'workspace', path: 'small.txt' });
  expect(next.structured).toMatchObject({ content: 'still answering\n' });
  return reports;
}

describe('cancellation and progress over Streamable HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await seedBigFile(server.rootPath('workspace'));
  });

  afterAll(async () => {
    await server.stop();
  });

  it('hash_file sends increasing progress, stops when the client cancels, and is logged as cancelled', async () => {
    const client = await server.connect();
    await hashThenCancel(client);
    const logged = await eventually(
      () => server.logger.withMessage('tool call').find((entry) => entry.fields.tool === 'hash_file'),
      'the hash_file call log',
    );
    expect(logged.fields).toMatchObject({ outcome: 'cancelled', error_code: 'CANCELLED', path: 'big.bin' });
    expect(server.logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('a call without a progressToken gets no progress and still completes', async () => {
    const client = await server.connect();
    const read = await callTool(client, 'grep', { root: 'workspace', pattern: 'answering', glob_filter: '*.txt' });
    expect(read.structured).toMatchObject({ total_matches: 1, truncated: false, timed_out: false });
  });
});

describe('cancellation and progress over stdio (child process)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-cancel-')));
    await seedBigFile(dir);
    await writeFile(join(dir, 'config.yaml'), 'roots:\n  - { name: workspace, path: ., allowed_tools: ["*"] }\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hash_file sends increasing progress, stops when the client cancels, and stderr logs it as cancelled', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'cancel-test', version: '1' });
    await client.connect(transport);
    try {
      await hashThenCancel(client);
      const records = () => stderr.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      const logged = await eventually(
        () => records().find((record) => record.message === 'tool call' && record.tool === 'hash_file'),
        'the hash_file call log on stderr',
      );
      expect(logged).toMatchObject({ outcome: 'cancelled', error_code: 'CANCELLED', session: expect.stringMatching(/^stdio-[0-9a-f]{12}$/) });
    } finally {
      await client.close();
    }
  });
});
