import type { Stats } from 'node:fs';
import { OnDemandHelper } from './helper-thread.js';

/** What a listing needs of an entry's lstat; node:fs Stats has it, and so does what the helper sends back. */
export type LstatFields = Pick<Stats, 'mode' | 'size' | 'mtimeMs' | 'birthtimeMs' | 'uid' | 'gid' | 'ino'>;

/** Directories with fewer names are statted by the event loop's thread alone: below this the round trip costs what it saves. */
export const PARALLEL_LSTAT_MIN_NAMES = 512;

/** Names claimed at a time from the shared counter, by either thread. */
const CHUNK = 32;

export interface ParallelLstatOptions {
  /** Listings with fewer names are statted by the event loop's thread alone (PARALLEL_LSTAT_MIN_NAMES). */
  readonly minNames?: number;
  /** Names claimed at a time (tests pass 1, so that the helper takes part in small listings too). */
  readonly chunk?: number;
  /** How long the event loop's thread waits for the names the helper claimed (HELPER_DEADLINE_MS). */
  readonly deadlineMs?: number;
  /** A helper with no request for this long is stopped. */
  readonly idleMs?: number;
  /**
   * How long the caller lets the helper take the first chunk before taking any itself. Listings do not
   * wait (0); tests do, so that the helper takes part in small listings on a loaded machine too.
   */
  readonly helperHeadStartMs?: number;
}

/**
 * How long the event loop's thread, done with its share, waits for the helper to finish the names
 * it claimed. The helper needs about 60 µs for a chunk here; past this (a descheduled helper) the
 * event loop's thread stats whatever the helper has not delivered itself.
 */
const HELPER_DEADLINE_MS = 2;

/** A helper with no request for this long is stopped; the next large listing starts another. */
const IDLE_MS = 30_000;

// control: [next name to claim, names the helper finished, abandoned (1: the caller left)]
const NEXT = 0;
const HELPER_FINISHED = 1;
const ABANDONED = 2;
// states, one per name: 0 not done by the helper, else how it ended.
const DONE = 1;
const VANISHED = 2;
const FAILED = 3;
const FIELDS = 7;

/**
 * The helper's code, a plain script (worker_threads `eval`) so that it runs the same from the bundle
 * and from the TypeScript sources under test. It claims chunks of names from the shared counter, lstats
 * each by its bare name in the working directory, writes the fields and then the name's state.
 */
const HELPER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
parentPort.on('message', ({ names, chunk, control, fields, states }) => {
  const ctl = new Int32Array(control);
  const out = new Float64Array(fields);
  const state = new Int32Array(states);
  const count = names.length;
  for (;;) {
    const start = Atomics.add(ctl, ${NEXT}, chunk);
    if (start >= count) return;
    const end = Math.min(start + chunk, count);
    for (let i = start; i < end; i += 1) {
      if (Atomics.load(ctl, ${ABANDONED}) !== 0) return;
      let outcome;
      try {
        const stats = lstatSync(names[i], { throwIfNoEntry: false });
        if (stats === undefined) outcome = ${VANISHED};
        else {
          const at = i * ${FIELDS};
          out[at] = stats.mode; out[at + 1] = stats.size; out[at + 2] = stats.mtimeMs;
          out[at + 3] = stats.birthtimeMs; out[at + 4] = stats.uid; out[at + 5] = stats.gid; out[at + 6] = stats.ino;
          outcome = ${DONE};
        }
      } catch {
        outcome = ${FAILED};
      }
      Atomics.store(state, i, outcome);
    }
    Atomics.add(ctl, ${HELPER_FINISHED}, end - start);
    Atomics.notify(ctl, ${HELPER_FINISHED});
  }
});
`;

/**
 * Fast path for large listings: the lstat of every entry (about half of a 10,000-entry list_folder)
 * is shared with a helper thread on the machine's other core. Both threads take chunks of names from
 * one shared counter, so a helper that is slow to wake or busy simply takes fewer.
 *
 * Security: the helper looks names up relative to the working directory, which the caller has made
 * the directory it opened O_NOFOLLOW and verified (WorkingDirectory.within), and lstat never follows
 * a link. That is sound only while the working directory stays put, so the event loop's thread
 * stays synchronously inside `statAll` (no other JavaScript runs, and a worker cannot chdir) until
 * every name the helper claimed is either delivered or taken back: past a short deadline it marks
 * the request abandoned, reads which names the helper delivered, and lstats the rest itself. A name
 * is delivered only once its fields are written (the state is stored after them), and the caller
 * reads the states once, before it returns: anything the helper does after that, at most the lstat
 * it was in when the request was abandoned, lands in buffers nobody reads again.
 */
export class ParallelLstat {
  /** Names the helper statted that a listing used (for tests and profiling). */
  helped = 0;
  private readonly helper: OnDemandHelper;
  private readonly minNames: number;
  private readonly chunk: number;
  private readonly deadlineMs: number;
  private readonly headStartMs: number;

  constructor(options: ParallelLstatOptions = {}) {
    this.headStartMs = options.helperHeadStartMs ?? 0;
    this.minNames = options.minNames ?? PARALLEL_LSTAT_MIN_NAMES;
    this.chunk = options.chunk ?? CHUNK;
    this.deadlineMs = options.deadlineMs ?? HELPER_DEADLINE_MS;
    this.helper = new OnDemandHelper(HELPER_SOURCE, options.idleMs ?? IDLE_MS);
  }

  /** Whether a helper thread runs now. */
  get running(): boolean {
    return this.helper.worker !== undefined;
  }

  /** Starts the helper if none runs, and resolves once it runs (a listing starts it itself; tests wait for it). */
  async ready(): Promise<void> {
    await this.helper.ready();
  }

  /**
   * The lstat of each name, by its bare name in the working directory, in the order of `names`;
   * null for a name that no longer exists. `lstatHere` is the caller's own lstat, which decides
   * vanished and failed names the usual way. Call it only inside WorkingDirectory.within.
   */
  statAll(names: readonly string[], lstatHere: (name: string) => LstatFields | null): (LstatFields | null)[] {
    const results = new Array<LstatFields | null>(names.length);
    if (names.length < this.minNames || !this.helper.start()) {
      for (let i = 0; i < names.length; i += 1) results[i] = lstatHere(names[i]);
      return results;
    }
    const control = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
    const fields = new Float64Array(new SharedArrayBuffer(names.length * FIELDS * Float64Array.BYTES_PER_ELEMENT));
    const states = new Int32Array(new SharedArrayBuffer(names.length * Int32Array.BYTES_PER_ELEMENT));
    const mine = new Uint8Array(names.length);
    this.helper.worker!.postMessage({ names, chunk: this.chunk, control: control.buffer, fields: fields.buffer, states: states.buffer });
    this.helper.touch();
    let own = 0;
    try {
      this.giveHeadStart(control);
      for (;;) {
        const start = Atomics.add(control, NEXT, this.chunk);
        if (start >= names.length) break;
        const end = Math.min(start + this.chunk, names.length);
        for (let i = start; i < end; i += 1) {
          mine[i] = 1;
          results[i] = lstatHere(names[i]);
        }
        own += end - start;
      }
      this.awaitHelper(control, names.length - own);
    } finally {
      // Security: from here on the helper's work is not read (see the class comment).
      Atomics.store(control, ABANDONED, 1);
    }
    for (let i = 0; i < names.length; i += 1) {
      if (mine[i] === 1) continue;
      const state = Atomics.load(states, i);
      if (state === DONE) {
        const at = i * FIELDS;
        results[i] = { mode: fields[at], size: fields[at + 1], mtimeMs: fields[at + 2], birthtimeMs: fields[at + 3], uid: fields[at + 4], gid: fields[at + 5], ino: fields[at + 6] };
        this.helped += 1;
      } else if (state === VANISHED) {
        results[i] = null;
      } else {
        // Not delivered in time, or failed there: the caller's own lstat decides (and words any error).
        results[i] = lstatHere(names[i]);
      }
    }
    return results;
  }

  private giveHeadStart(control: Int32Array): void {
    const until = performance.now() + this.headStartMs;
    while (Atomics.load(control, NEXT) === 0 && performance.now() < until) Atomics.wait(control, NEXT, 0, 1);
  }

  /** Waits, at most the deadline, until the helper finished the `count` names it claimed. */
  private awaitHelper(control: Int32Array, count: number): void {
    const deadline = performance.now() + this.deadlineMs;
    for (;;) {
      const finished = Atomics.load(control, HELPER_FINISHED);
      if (finished >= count) return;
      const left = deadline - performance.now();
      if (left <= 0) return;
      Atomics.wait(control, HELPER_FINISHED, finished, left);
    }
  }

  /** Stops the helper for good; later listings stat every entry on the event loop's thread. */
  async close(): Promise<void> {
    await this.helper.retire();
  }
}

let shared: ParallelLstat | undefined;

/** The process's one helper, shared by every NodeFileSystem (the working directory is the process's too). */
export function sharedParallelLstat(): ParallelLstat {
  shared ??= new ParallelLstat();
  return shared;
}
