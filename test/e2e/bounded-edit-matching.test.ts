import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { whileBystanderReads } from './bounded-work-harness.js';

// Issue 33 §1: str_replace's whitespace-tolerant matching is bounded, and nobody else waits for it.
const live = useTestServer();
let other: Client;

beforeAll(async () => {
  other = await live.server.connect();
  await writeFile(join(live.root, 'other.txt'), 'hello\n');
  await writeFile(join(live.root, 'big.txt'), `${Array(1_000_000).fill('a').join('\n')}\n`);
  const viewed = await callTool(live.client, 'view', { path: '/workspace/big.txt', view_range: [1, 5] });
  expect(viewed.isError).toBe(false);
});

it('a 1M-line file and a 2,000-line old_str (3 edits, dry run): refused promptly, naming the limit, while another client reads within 200 ms', async () => {
  // Not exact anywhere, and line by line each of its first 1,999 lines matches every file line.
  const oldStr = `${Array(1999).fill(' a').join('\n')}\n b`;
  const edits = [0, 1, 2].map(() => ({ old_str: oldStr, new_str: 'x' }));
  const { outcome, elapsedMs, bystander } = await whileBystanderReads(other, { root: 'workspace', path: 'other.txt' }, () =>
    callTool(live.client, 'str_replace', { path: '/workspace/big.txt', edits, dry_run: true }),
  );
  expect(outcome.isError).toBe(true);
  expect(outcome.text).toContain('INVALID_ARGUMENT');
  expect(outcome.text).toContain('edit 1 of 3: old_str is not in /workspace/big.txt exactly, and matching it line by line with whitespace ignored is limited to 100,000 file lines per call');
  expect(elapsedMs).toBeLessThan(1500);
  expect(bystander.slowestMs).toBeLessThan(200);
});
