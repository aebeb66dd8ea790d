import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { whileBystanderReads } from './bounded-work-harness.js';

// Issue 33 §1: a planted ignore file cannot stall a search past its deadline, nor another client.
const live = useTestServer();
let other: Client;

beforeAll(async () => {
  other = await live.server.connect();
  await writeFile(join(live.root, 'other.txt'), 'hello\n');
  for (const name of ['a.txt', 'b.log']) await writeFile(join(live.root, name), 'x\n');
});

const hostileLine = '*a'.repeat(2000);

it.each([
  ['a 1 MiB .gitignore of 263 hostile lines (over the size limit: not read)', 263],
  ['a 60 KiB .gitignore of 15 hostile lines (each over the pattern limits: skipped)', 15],
])('%s: glob with timeout_seconds 1 answers promptly and another client reads within 200 ms', async (_what, lines) => {
  await writeFile(join(live.root, '.gitignore'), `${Array(lines).fill(hostileLine).join('\n')}\n*.log\n`);
  for (let call = 0; call < 2; call += 1) {
    const { outcome, elapsedMs, bystander } = await whileBystanderReads(other, { root: 'workspace', path: 'other.txt' }, () =>
      callTool(live.client, 'glob', { root: 'workspace', pattern: '**', type_filter: 'file', timeout_seconds: 1 }),
    );
    expect(outcome.isError).toBe(false);
    const paths = (outcome.structured.matches as { path: string }[]).map((match) => match.path);
    // The bounded lines still apply when the file is read; the whole file is left out when it is too large.
    expect(paths).toEqual(lines === 263 ? ['.gitignore', 'a.txt', 'b.log', 'other.txt'] : ['.gitignore', 'a.txt', 'other.txt']);
    expect(elapsedMs).toBeLessThan(1500);
    expect(bystander.slowestMs).toBeLessThan(200);
  }
});
