import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTree } from '../support/fixtures.js';
import { Arena } from './adversarial-harness.js';

// Red team: a process on the host swaps an in-root directory for a link to the outside
// directory in a tight loop while MCP calls walk, remove, copy, move, hash and search through
// it. The adapter-level race test covers reads and writes; this one covers the rest, end to end.

const RACE_MS = 2500;

/** Swaps `victim` (a real directory) <-> `victim.link` (a link to outside) by renames, until time is up. */
const ATTACKER = `
const fs = require('fs');
const [root, outside, ms] = process.argv.slice(1);
const at = (name) => root + '/' + name;
const quietly = (action) => { try { action(); } catch {} };
fs.symlinkSync(outside, at('victim.link'));
console.log('ready');
const deadline = Date.now() + Number(ms);
let rounds = 0;
while (Date.now() < deadline) {
  quietly(() => fs.renameSync(at('victim'), at('victim.dir')));
  quietly(() => fs.renameSync(at('victim.link'), at('victim')));
  quietly(() => fs.renameSync(at('victim'), at('victim.link')));
  quietly(() => fs.renameSync(at('victim.dir'), at('victim')));
  rounds += 1;
}
console.log(rounds);
`;

let server: TestServer;
let client: Client;
let attacker: ChildProcess | undefined;
const arena = new Arena(() => server);

beforeAll(async () => {
  server = await startTestServer({ roots: [{ name: 'workspace' }, { name: 'other' }] });
  client = await server.connect();
  await arena.create();
  await arena.reset();
});

afterAll(async () => {
  if (attacker && attacker.exitCode === null) attacker.kill();
  await server?.stop();
  await arena.destroy();
});

it('swapping a directory for a link to outside never lets remove, copy, move, hash, grep, glob or a subtree listing reach outside', async () => {
  const ws = server.rootPath('workspace');
  // The .gitignore files are read by every grep and glob (issue 19's default ignore rules) as they walk.
  const inside = { 'secret.txt': 'inside\n', 'sub/inner.txt': 'inside inner\n', 'sub/deeper/x.txt': 'x\n', '.gitignore': '*.log\n', 'sub/.gitignore': '!keep.log\n' };
  await writeTree(join(ws, 'victim'), inside);
  const secretBytes = await fs.readFile(join(arena.outside, 'secret.txt'));
  const outsideDigests = new Set(['md5', 'sha1', 'sha256'].map((algorithm) => createHash(algorithm).update(secretBytes).digest('hex')));

  const child = spawn(process.execPath, ['-e', ATTACKER, ws, arena.outside, String(RACE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  attacker = child;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));

  const inWs = (extra: Record<string, unknown>) => ({ root: 'workspace', ...extra });
  const pair = (source_path: string, dest_path: string, dest_root = 'workspace') => ({ source_root: 'workspace', source_path, dest_root, dest_path });
  const digests: string[] = [];
  let calls = 0;
  let round = 0;
  const worker = async (): Promise<void> => {
    while (child.exitCode === null) {
      round += 1;
      const n = round;
      const batch: [string, Record<string, unknown>][] = [
        ['remove_folder', inWs({ path: 'victim/sub' })],
        ['remove_file', inWs({ path: 'victim/secret.txt' })],
        ['copy', pair('victim', `copies/c${n}`, 'other')],
        ['move', pair('victim/sub', `moved/m${n}`)],
        ['move', pair('victim/secret.txt', `moved/s${n}.txt`)],
        ['grep', inWs({ path: 'victim', pattern: '.' })],
        ['glob', inWs({ path: 'victim', pattern: '**' })],
        ['list_folder', inWs({ path: 'victim/sub' })],
        // Issue 19: subtree listings walk through the swapped directory too (through the scan, and a lookup per link).
        ['list_folder', inWs({ path: 'victim', depth: 3 })],
        ['list_folder', inWs({ path: '.', depth: 5, max_entries: 50 })],
        ['stat_file', inWs({ path: 'victim/secret.txt' })],
        ['write_file', inWs({ path: 'victim/secret.txt', content: 'inside\n' })],
        ['create_folder', inWs({ path: 'victim/sub/deeper' })],
        ['view', { path: '/workspace/victim' }],
        ['file_read', { path: '/workspace/victim/secret.txt' }],
      ];
      const outcomes = await Promise.all(batch.map(([name, args]) => arena.call(client, name, args)));
      for (const algorithm of ['md5', 'sha256']) {
        const hashed = await arena.call(client, 'hash_file', inWs({ path: 'victim/secret.txt', algorithm }));
        if (!hashed.isError) digests.push(hashed.structured.hash);
      }
      calls += outcomes.length + 2;
    }
  };
  await Promise.all(Array.from({ length: 3 }, worker));
  await exited;

  expect(Number(output.trim().split('\n').pop())).toBeGreaterThan(100);
  expect(calls).toBeGreaterThan(100);
  expect(digests.filter((digest) => outsideDigests.has(digest))).toEqual([]);
  await arena.verify(client);
  // Nothing of the outside tree was copied or moved into a root either.
  await assertNoOutsideContentIn(server.rootPath('other'));
  await assertNoOutsideContentIn(ws);
}, 30_000);

/** No file below `dir` holds the outside secret (a copy or move that followed the link would). */
async function assertNoOutsideContentIn(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const content = await fs.readFile(join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name), 'utf8');
    expect(content).not.toContain(arena.secret);
  }
}
