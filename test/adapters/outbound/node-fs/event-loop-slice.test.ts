import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import { EventLoopSlice } from '../../../../src/adapters/outbound/node-fs/event-loop-slice.js';
import type { RootPath } from '../../../../src/domain/roots.js';
import { makeRoot } from '../../../support/roots.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EventLoopSlice', () => {
  it('lets a run go on without a hop until it has held the loop for its slice, then yields once', async () => {
    let now = 0;
    const slice = new EventLoopSlice(3, () => now);
    expect(slice.turn()).toBeUndefined();
    now = 2.9;
    expect(slice.turn()).toBeUndefined();
    now = 3;
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    const yielded = slice.turn();
    expect(yielded).toBeInstanceOf(Promise);
    await yielded;
    // Work queued on the loop before the yield had its turn first.
    expect(otherWorkRan).toBe(true);
  });

  it('starts a new slice once the loop has had a turn', async () => {
    let now = 0;
    const slice = new EventLoopSlice(3, () => now);
    slice.turn();
    now = 10;
    await nextTurn();
    // The run that started at 0 gave way; a call at 10 opens a fresh run and does not hop.
    expect(slice.turn()).toBeUndefined();
    now = 12;
    expect(slice.turn()).toBeUndefined();
  });
});

describe('NodeFileSystem: a long run of synchronous calls lets other work in', () => {
  let base: string;
  let fs: NodeFileSystem;
  const FILES = 200;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'event-loop-slice-')));
    mkdirSync(join(base, 'dir'));
    for (let i = 0; i < FILES; i += 1) writeFileSync(join(base, 'dir', `f${i}.txt`), `file ${i}\n`);
    fs = new NodeFileSystem({ stateDir: join(base, '.state') });
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('serves a callback queued on the event loop while stat and openFile keep being called', async () => {
    const root = makeRoot('workspace', base);
    const at = (rel: string): RootPath => ({ root, segments: rel.split('/') });
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    // Each call below is synchronous syscalls behind a promise: without the slice this loop runs
    // to its end as one chain of microtasks and the callback waits for all of it.
    let calls = 0;
    const MAX_CALLS = 50_000;
    while (!otherWorkRan && calls < MAX_CALLS) {
      const name = `dir/f${calls % FILES}.txt`;
      if (calls % 2 === 0) await fs.stat(at(name));
      else await (await fs.openFile(at(name))).close();
      calls += 1;
    }
    expect(otherWorkRan).toBe(true);
    expect(calls).toBeLessThan(MAX_CALLS);
  });
});
