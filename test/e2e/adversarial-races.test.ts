import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTree } from '../support/fixtures.js';
import { Arena } from './adversarial-harness.js';
import type { ToolCallOutcome } from '../support/mcp.js';

// Red team: a process on the host swaps an in-root directory for a link to the outside
// directory in a tight loop while MCP calls walk, remove, copy, move, hash and search through
// it. The adapter-level race test covers reads and writes; this one covers the rest, end to end.

/**
 * The race lasts at least RACE_MS and until MIN_CALLS calls were made (at most MAX_RACE_MS): a
 * fixed window made the count a measure of the machine's load, not of the server (85 calls in
 * 2.5 s under load with the journal off, 68 with it on: each change costs three fsyncs there).
 */
const RACE_MS = 2500;
const MIN_CALLS = 100;
const MAX_RACE_MS = 15_000;

/** Swaps `victim` (a real directory) <-> `victim.link` (a link to outside) by renames, until time is up or `stop` exists. */
const ATTACKER = `
const fs = require('fs');
const [root, outside, ms, stop] = process.argv.slice(1);
const at = (name) => root + '/' + name;
const quietly = (action) => { try { action(); } catch {} };
fs.symlinkSync(outside, at('victim.link'));
console.log('ready');
const deadline = Date.now() + Number(ms);
let rounds = 0;
while (Date.now() < deadline && (rounds % 64 !== 0 || !fs.existsSync(stop))) {
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

type Call = [string, Record<string, unknown>];

/**
 * Runs the attacker on `workspace/victim` while `workers` workers send `rounds(n)` round after round
 * (the calls of a group at once, the groups one after another), until the race has lasted RACE_MS
 * and made `minCalls` calls (or MAX_RACE_MS passed). Every answer is bounded and leak-checked
 * (Arena.call). Returns the attacker's swap rounds and every answer, by tool.
 */
async function race(rounds: (round: number) => Call[][], workers = 3, minCalls = MIN_CALLS, maxCalls = Number.POSITIVE_INFINITY): Promise<{ swaps: number; outcomes: [string, ToolCallOutcome][] }> {
  await fs.rm(join(server.rootPath('workspace'), 'victim.link'), { force: true });
  const stop = join(arena.outside, '..', `${basename(arena.outside)}.stop`);
  const child = spawn(process.execPath, ['-e', ATTACKER, server.rootPath('workspace'), arena.outside, String(MAX_RACE_MS), stop], { stdio: ['ignore', 'pipe', 'inherit'] });
  attacker = child;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  const started = Date.now();
  const outcomes: [string, ToolCallOutcome][] = [];
  let round = 0;
  const worker = async (): Promise<void> => {
    while (child.exitCode === null) {
      round += 1;
      for (const group of rounds(round)) {
        const answers = await Promise.all(group.map(([name, args]) => arena.call(client, name, args)));
        answers.forEach((answer, index) => outcomes.push([group[index][0], answer]));
      }
      if (outcomes.length >= minCalls && (Date.now() - started >= RACE_MS || outcomes.length >= maxCalls)) await fs.writeFile(stop, '');
    }
  };
  // Every worker settles before the race ends: a failed call must not leave calls running, or the attacker swapping, under the next test.
  const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
  await fs.writeFile(stop, '');
  await exited;
  await fs.rm(stop, { force: true });
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  return { swaps: Number(output.trim().split('\n').pop()), outcomes };
}

const inWs = (extra: Record<string, unknown>) => ({ root: 'workspace', ...extra });
const pair = (source_path: string, dest_path: string, dest_root = 'workspace') => ({ source_root: 'workspace', source_path, dest_root, dest_path });

it('swapping a directory for a link to outside never lets remove, copy, move, hash, grep, glob or a subtree listing reach outside', async () => {
  const ws = server.rootPath('workspace');
  // The .gitignore files are read by every grep and glob (issue 19's default ignore rules) as they walk.
  const inside = { 'secret.txt': 'inside\n', 'sub/inner.txt': 'inside inner\n', 'sub/deeper/x.txt': 'x\n', '.gitignore': '*.log\n', 'sub/.gitignore': '!keep.log\n' };
  await writeTree(join(ws, 'victim'), inside);
  const secretBytes = await fs.readFile(join(arena.outside, 'secret.txt'));
  const outsideDigests = new Set(['md5', 'sha1', 'sha256'].map((algorithm) => createHash(algorithm).update(secretBytes).digest('hex')));

  const { swaps, outcomes } = await race((n) => [[
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
  ], [['hash_file', inWs({ path: 'victim/secret.txt', algorithm: 'md5' })]], [['hash_file', inWs({ path: 'victim/secret.txt', algorithm: 'sha256' })]]]);

  expect(swaps).toBeGreaterThan(100);
  expect(outcomes.length).toBeGreaterThanOrEqual(MIN_CALLS);
  const digests = outcomes.filter(([name, outcome]) => name === 'hash_file' && !outcome.isError).map(([, outcome]) => outcome.structured.hash);
  expect(digests.filter((digest) => outsideDigests.has(digest))).toEqual([]);
  await arena.verify(client);
  // Nothing of the outside tree was copied or moved into a root either.
  await assertNoOutsideContentIn(server.rootPath('other'));
  await assertNoOutsideContentIn(ws);
}, 45_000);

// Issue 20, with the journal on (the default): every change reads its before-image through the
// same confined lookups as any read, and every undo writes through the same confined writes.
// While the directory is swapped for a link to outside, no before-image ever holds the outside
// secret, no list_changes diff shows it, and no undo writes outside.
it('with the journal on, a directory swapped for a link during writes and undos never makes the journal keep, show or restore anything outside', async () => {
  await arena.reset();
  const ws = server.rootPath('workspace');
  await writeTree(join(ws, 'victim'), { 'secret.txt': 'inside\n', 'sub/inner.txt': 'inside inner\n' });
  await writeTree(ws, { 'keep.txt': 'kept\n' });
  const first = await arena.call(client, 'write_file', inWs({ path: 'start.txt', content: 'start\n' }));
  expect(first.isError).toBe(false);
  const since = (await arena.call(client, 'list_changes', { limit: 1 })).structured.changes[0].id as string;

  const { outcomes } = await race((n) => [[
    ['write_file', inWs({ path: 'victim/secret.txt', content: `inside ${n}\n` })],
    ['write_file', inWs({ path: 'victim/secret.txt', content: 'more\n', mode: 'append' })],
    ['write_file', inWs({ path: 'victim/sub/inner.txt', content: 'inside inner\n' })],
    ['remove_file', inWs({ path: 'victim/secret.txt' })],
    ['remove_folder', inWs({ path: 'victim/sub' })],
    ['copy', pair('keep.txt', 'victim/secret.txt')],
    ['move', pair('victim/sub', `moved/m${n}`)],
    ['move', pair(`moved/m${n - 1}`, 'victim/sub')],
  ]], 3, MIN_CALLS, 120);
  // At most ~120 changes (and the groups in flight): every undo_changes below undoes all of them, one after another, within one
  // call's budget. Bounded by time alone, the race made 250-300 once writes got faster (the begin
  // log), and undoing them took longer than the 5 s a single call may take.
  expect(outcomes.filter(([name, outcome]) => name === 'write_file' && !outcome.isError).length).toBeGreaterThan(0);
  // Then undo (and list with diffs) while the swapping goes on, one call at a time: run beside
  // writes, a list or undo can make DiskChangeJournal.refresh forget a change another call is
  // still beginning (its record not renamed into place yet), which fails that call.
  await race(() => [[['list_changes', { diff: true, limit: 20 }]], [['undo_changes', { since_id: since, session: 'all', force: true }]]], 1, 10);

  // No before-image the journal kept holds anything of outside: not in the records, nor in the begin log.
  for (const entry of await fs.readdir(server.config.journal!.dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const name = join(entry.parentPath, entry.name);
    expect({ name, outside: (await fs.readFile(name, 'latin1')).includes(arena.secret) }).toEqual({ name, outside: false });
  }
  // A last undo of everything (every racing session's: all), after the race: it restores only inside.
  expect((await arena.call(client, 'undo_changes', { since_id: since, session: 'all', force: true })).isError).toBe(false);
  await arena.verify(client);
  await assertNoOutsideContentIn(server.rootPath('other'));
  await assertNoOutsideContentIn(ws);
}, 45_000);

/** No file below `dir` holds the outside secret (a copy or move that followed the link would). */
async function assertNoOutsideContentIn(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const content = await fs.readFile(join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name), 'utf8');
    expect(content).not.toContain(arena.secret);
  }
}
