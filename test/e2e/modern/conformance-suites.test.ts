import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The official conformance suites (npm run conformance) against the built server: every result as expected.mjs says. */
it('passes the official MCP conformance suites as scripts/conformance/expected.mjs records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpfs-conformance-test-'));
  try {
    const file = join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['scripts/conformance.mjs', '--json', file], { encoding: 'utf8', timeout: 170_000 });
    expect({ status: run.status, tail: run.stdout.slice(-400) }).toEqual({ status: 0, tail: expect.stringContaining('every result as expected') });
    const { results } = JSON.parse(readFileSync(file, 'utf8')) as { results: Record<string, Record<string, { verdict: string }>> };
    for (const name of ['server-stateless', 'caching', 'completion-complete']) expect(results['0.2.0-alpha.12'][name].verdict).toBe('partial');
    for (const name of ['tools-list', 'resources-list', 'sep-2164-resource-not-found', 'dns-rebinding-protection', 'server-sse-multiple-streams', 'http-header-validation']) {
      expect(results['0.2.0-alpha.12'][name].verdict).toBe('pass');
    }
    for (const name of ['server-initialize', 'tools-list', 'resources-list', 'dns-rebinding-protection', 'server-sse-multiple-streams']) expect(results['0.1.16'][name].verdict).toBe('pass');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
