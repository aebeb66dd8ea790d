import { promises as fs } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { writeTree } from '../support/fixtures.js';
import { bounded, mkfifo, pair, tryMakeZeroDevice, useArena, ws } from './adversarial-harness.js';

// Red team: special files, hostile limits, catastrophic patterns and foreign Host headers. The
// server must answer every call quickly, with a clean error or a clamped result, and keep running.

const { live, arena, host, call } = useArena({ settings: { maxFullReadSize: 64 * 1024, maxFileSize: 256 * 1024 } });

describe('special files never block or get read', () => {
  it('a FIFO (and a link to it) is NOT_A_FILE for every reading tool, skipped by walks, never replaced by writes', async () => {
    await writeTree(live.root, { 'dir/plain.txt': 'needle\n' });
    mkfifo(host('dir/pipe'));
    await fs.symlink('pipe', host('dir/pipelink'));

    for (const path of ['dir/pipe', 'dir/pipelink']) {
      const refused: [string, Record<string, unknown>][] = [
        ['read_file', ws({ path })],
        ['read_file', ws({ path, offset_bytes: 0, limit_bytes: 1 })],
        ['read_file', ws({ path, offset_lines: 1, limit_lines: 1 })],
        ['hash_file', ws({ path, algorithm: 'sha1' })],
        ['grep', ws({ path, pattern: 'x' })],
        ['copy', pair(path, 'copied')],
        ['patch_file', ws({ path, patch: '@@ -0,0 +1,1 @@\n+x\n' })],
        ['write_file', ws({ path, content: 'x' })],
        ['write_file', ws({ path, content: 'x', mode: 'append' })],
        ['write_file', ws({ path, content: 'x', mode: 'create_only' })],
        ['list_folder', ws({ path })],
      ];
      for (const [name, args] of refused) {
        expect({ name, path, isError: (await call(name, args)).isError }).toEqual({ name, path, isError: true });
      }
    }
    expect((await fs.lstat(host('dir/pipe'))).isFIFO()).toBe(true);
    expect((await call('stat_file', ws({ path: 'dir/pipe' }))).isError).toBe(false);
    expect((await call('permissions_file', ws({ path: 'dir/pipe' }))).structured.mode_string).toMatch(/^p|^\?/);

    const grepped = (await call('grep', ws({ pattern: 'needle' }))).structured;
    expect(grepped.matches.map((m: any) => m.file)).toEqual(['dir/plain.txt']);
    const copied = (await call('copy', pair('dir', 'copy'))).structured;
    expect(copied.files_copied).toBe(1);
    expect(copied.skipped.map((s: any) => s.path).sort()).toEqual(['dir/pipe', 'dir/pipelink']);
    expect((await call('glob', ws({ pattern: '**', type_filter: 'all' }))).isError).toBe(false);
    expect((await call('remove_folder', ws({ path: 'dir' }))).isError).toBe(false);
  });

  it('a character device like /dev/zero inside a root is never read', async () => {
    if (!tryMakeZeroDevice(host('zero'))) {
      // Without mknod rights the device cannot exist in a root; a FIFO stands in for the special-file path.
      mkfifo(host('zero'));
    }
    for (const [name, args] of [
      ['read_file', ws({ path: 'zero' })],
      ['read_file', ws({ path: 'zero', offset_bytes: 0, limit_bytes: 10 })],
      ['hash_file', ws({ path: 'zero', algorithm: 'md5' })],
      ['grep', ws({ path: 'zero', pattern: 'x' })],
      ['copy', pair('zero', 'copy')],
      ['write_file', ws({ path: 'zero', content: 'x', mode: 'append' })],
    ] as [string, Record<string, unknown>][]) {
      expect({ name, isError: (await call(name, args)).isError }).toEqual({ name, isError: true });
    }
    expect((await call('grep', ws({ pattern: '.' }))).structured.files_searched).toBe(0);
  });
});

describe('hostile limits', () => {
  beforeEach(async () => {
    await writeTree(live.root, {
      'long.txt': `${'a'.repeat(200_000)}b\n`,
      'lines.txt': Array.from({ length: 2000 }, (_, i) => `line ${i}\n`).join(''),
      'big.txt': 'x'.repeat(200 * 1024),
    });
  });

  it('grep: catastrophic and unsupported patterns are linear or refused', async () => {
    const started = Date.now();
    for (const pattern of ['(a+)+$', '(a|a)*b$', '(a*)*c', '((((((((a*)*)*)*)*)*)*)*)c', '(.*a){20}c']) {
      expect((await call('grep', ws({ pattern, path: 'long.txt' }))).isError).toBe(false);
    }
    expect(Date.now() - started).toBeLessThan(3000);
    for (const pattern of ['(a)\\1', '(?=a)', '(?<=a)b', 'a{1001}', 'a{1000}{1000}', '[', '(?P<x', '((a{100}){100}){100}']) {
      expect((await call('grep', ws({ pattern, path: 'lines.txt' }))).isError).toBe(true);
    }
  });

  it('grep and glob: numeric limits are refused or clamped, never trusted', async () => {
    for (const extra of [
      { context_lines: 1e9 }, { context_lines: Number.MAX_SAFE_INTEGER }, { max_results: 1e12 }, { timeout_seconds: 1e12 },
      { max_depth: 1e12 }, { context_lines: 1e9, max_results: 1e9 },
    ]) {
      const outcome = await call('grep', ws({ pattern: 'line 1999', path: 'lines.txt', ...extra }));
      expect(outcome.isError).toBe(false);
      expect(outcome.structured.total_matches).toBe(1);
    }
    for (const extra of [
      { context_lines: -1 }, { context_lines: 1.5 }, { max_results: 0 }, { max_results: -5 }, { timeout_seconds: 0 },
      { timeout_seconds: -1 }, { timeout_seconds: 0.5 }, { max_depth: 0 }, { max_depth: -1 }, { context_lines: 1e300 },
      { max_results: Number.POSITIVE_INFINITY }, { context_lines: '5' },
    ]) {
      expect((await call('grep', ws({ pattern: 'line', ...extra }))).isError).toBe(true);
      const globExtra = 'context_lines' in extra ? { max_results: -1 } : extra;
      expect((await call('glob', ws({ pattern: '*', ...globExtra }))).isError).toBe(true);
    }
    const clamped = (await call('glob', ws({ pattern: '**', max_results: 1e12, timeout_seconds: 1e12, max_depth: 1e12 }))).structured;
    expect(clamped.total_matches).toBe(3);
  });

  it('read_file: offsets and limits at the extremes', async () => {
    for (const extra of [
      { offset_bytes: 1e15 }, { offset_bytes: 1e15, limit_bytes: 1e15 }, { limit_bytes: Number.MAX_SAFE_INTEGER },
      { offset_lines: 1e15 }, { offset_lines: 1, limit_lines: 1e15 }, { offset_lines: 1999, limit_lines: Number.MAX_SAFE_INTEGER },
    ]) {
      const outcome = await call('read_file', ws({ path: 'lines.txt', ...extra }));
      expect(outcome.isError).toBe(false);
      expect(outcome.structured.content.length).toBeLessThanOrEqual(256 * 1024);
    }
    const big = await call('read_file', ws({ path: 'big.txt', offset_bytes: 0, limit_bytes: 1e15 }));
    expect(big.structured.content.length).toBeLessThanOrEqual(256 * 1024);
    for (const extra of [
      { offset_bytes: -1 }, { limit_bytes: 0 }, { limit_bytes: -1 }, { offset_lines: 0 }, { offset_lines: -1 }, { limit_lines: 0 },
      { offset_bytes: 2 ** 53 + 2 }, { offset_bytes: 1e300 }, { offset_bytes: 1.5 }, { offset_bytes: 0, offset_lines: 1 },
      { limit_bytes: Number.POSITIVE_INFINITY }, { offset_lines: '1' },
    ]) {
      expect((await call('read_file', ws({ path: 'lines.txt', ...extra }))).isError).toBe(true);
    }
    expect((await call('read_file', ws({ path: 'big.txt' }))).text).toMatch(/^FILE_TOO_LARGE: /);
  });

  it('patch_file: hostile headers and hunk numbers touch only the named file', async () => {
    await writeTree(live.root, { 'p.txt': 'one\n' });
    const patches = [
      `--- ${join(arena.outside, 'secret.txt')}\n+++ ${join(arena.outside, 'secret.txt')}\n@@ -1,1 +1,1 @@\n-one\n+two\n`,
      '--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1,1 +1,1 @@\n-two\n+three\n',
      '@@ -999999999999999999,1 +1,1 @@\n-three\n+four\n',
      '@@ -1,99999999999 +1,99999999999 @@\n-four\n+five\n',
      '@@ --1,1 +-1,1 @@\n-five\n+six\n',
      '@@ -1 +1 @@\n-five\n+six\n' + '@@ -1 +1 @@\n-six\n+seven\n'.repeat(2000),
    ];
    for (const patch of patches) await call('patch_file', ws({ path: 'p.txt', patch }));
    expect(await fs.readdir(live.root)).toEqual(['big.txt', 'lines.txt', 'long.txt', 'p.txt']);
  });

  it('write_file: content beyond the size limits and odd text is handled without a crash', async () => {
    for (const content of ['\ud800', '\u0000\u0000', 'x'.repeat(2 * 1024 * 1024)]) {
      await call('write_file', ws({ path: 'w.txt', content }));
    }
  });
});

describe('HTTP transport', () => {
  function post(headers: Record<string, string>, body: string, path = '/mcp'): Promise<{ status: number; body: string }> {
    const url = new URL(live.server.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (res) => {
          let data = '';
          res.on('data', (chunk) => (data += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'red-team', version: '1' } },
  });

  it.each([
    { host: 'evil.example' },
    { host: 'localhost.evil.example' },
    { host: '127.0.0.1.nip.io' },
    { host: 'evil.example:80' },
    { host: 'localhost', origin: 'http://evil.example' },
    { host: 'localhost', origin: 'null' },
    { host: '127.0.0.1', origin: 'http://127.0.0.1@evil.example' },
  ])('%j is refused with 403 before any MCP handling', async ({ host: hostHeader, origin }) => {
    const response = await post({ host: hostHeader, ...(origin ? { origin } : {}) }, initialize);
    expect(response.status).toBe(403);
    for (const hostPath of arena.hostPaths()) expect(response.body).not.toContain(hostPath);
  });

  it('malformed bodies and unknown sessions get 4xx, and the server keeps answering', async () => {
    const good = { host: new URL(live.server.baseUrl).host };
    for (const body of ['{', 'null', '[]', '{"jsonrpc":"2.0"}', '\u0000', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })]) {
      const response = await bounded(post(good, body), `POST ${JSON.stringify(body)}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      for (const hostPath of arena.hostPaths()) expect(response.body).not.toContain(hostPath);
    }
    const stale = await post({ ...good, 'mcp-session-id': 'not-a-session' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect(stale.status).toBeLessThan(500);
  });
});
