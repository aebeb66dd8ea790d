import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { EntryKind } from '../../../domain/ports/file-system.port.js';
import { OnDemandHelper } from './helper-thread.js';

/** One name of a directory listing and its kind as the listing gives it (d_type; never followed). */
export interface ListedEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/**
 * A helper with no request for this long is stopped (a thread and its memory are not kept for
 * nothing); the next scan starts another. Long enough that an agent's searches a few seconds apart
 * find it running: a new one is online after 22–28 ms here, and the scan lists alone meanwhile.
 */
const IDLE_MS = 30_000;

/** How long `take` waits for a listing the helper has not delivered yet before the caller lists the directory itself. */
const TAKE_DEADLINE_MS = 5;

/** The helper's answer for one request: its number and the listing packed as `<kind letter><name>\0...`, or null when it could not list. */
interface Answer {
  readonly seq: number;
  readonly packed: string | null;
}

const KIND_OF_LETTER: Readonly<Record<string, EntryKind>> = { f: 'file', d: 'directory', l: 'symlink', o: 'other' };

/**
 * The helper's code, a plain script (worker_threads `eval`) so that it runs the same from the
 * bundle and from the TypeScript sources under test. It lists each directory through
 * `/proc/self/fd/N` (never a relative path: the working directory belongs to the event loop's
 * thread, see WorkingDirectory) and answers with the names and their d_type only. Requests come in
 * batches (the children a scan opened ahead in one directory); the newest batch is served first,
 * because a depth-first scan enters the children it opened last before the siblings of their parent.
 */
const HELPER_SOURCE = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { readdirSync } = require('node:fs');
const { port, signal } = workerData;
const delivered = new Int32Array(signal);
const batches = [];
function list(fd) {
  let packed = '';
  for (const entry of readdirSync('/proc/self/fd/' + fd, { withFileTypes: true })) {
    packed += (entry.isFile() ? 'f' : entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : 'o') + entry.name + '\\0';
  }
  return packed;
}
function serve() {
  for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) batches.push(message.message);
  while (batches.length > 0) {
    const batch = batches[batches.length - 1];
    const { seq, fd } = batch.shift();
    if (batch.length === 0) batches.pop();
    let packed;
    try { packed = list(fd); } catch { packed = null; }
    port.postMessage({ seq, packed });
    Atomics.add(delivered, 0, 1);
    Atomics.notify(delivered, 0);
    for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) batches.push(message.message);
  }
}
port.on('message', (batch) => { batches.push(batch); serve(); });
`;

/**
 * Fast path for tree scans: a helper thread lists the directories a scan opened ahead while the
 * event loop's thread works through the ones before them (the listing is about a third of a glob's
 * time, and this machine has a second core). A scan asks for the listing of a child directory when
 * it opens it, and takes it when it enters that directory; a listing that is not there in time is
 * made by the scan itself, as without the helper.
 *
 * Security: the helper only names entries. Every lookup of a listed name stays with the scan, by a
 * bare name in the directory it opened O_NOFOLLOW and verified (never following a link), so a
 * listing can at worst be stale, like any listing. It is the listing of the right directory because
 * an answer is used only for a request still outstanding: the scan keeps the fd open from the request
 * until it takes the answer, or abandons the request before closing the fd, and the answer of an
 * abandoned request is dropped (its fd number may meanwhile name another directory).
 */
export class ListingPrefetch {
  /** Listings the helper made that a scan used (for tests and profiling). */
  helped = 0;
  private readonly helper: OnDemandHelper;
  private port?: MessagePort;
  private delivered?: Int32Array;
  /** Requests sent to the current helper. */
  private sent = 0;
  /** The helper missed a deadline and has not answered since: `take` does not wait for it. */
  private stalled = false;
  private nextSeq = 1;
  /** Outstanding requests: fd → request number. */
  private readonly outstanding = new Map<number, number>();
  /** The request numbers in `outstanding`. */
  private readonly live = new Set<number>();
  /** Answers received for outstanding requests, by request number. */
  private readonly answers = new Map<number, string | null>();
  /** Requests not yet sent (sent as one batch by `flush`). */
  private pending: { seq: number; fd: number }[] = [];

  constructor(idleMs = IDLE_MS) {
    this.helper = new OnDemandHelper(HELPER_SOURCE, idleMs, () => this.forgetAll());
  }

  /** Requests neither taken nor abandoned yet (each holds the promise that its fd stays open). */
  get outstandingRequests(): number {
    return this.outstanding.size;
  }

  /** Whether a helper thread runs now. */
  get running(): boolean {
    return this.helper.worker !== undefined;
  }

  /** Starts the helper if none runs, and resolves once it runs (a scan starts it itself; tests wait for it). */
  async ready(): Promise<void> {
    if (this.start()) await this.helper.ready();
  }

  /** Asks for the listing of the directory open as `fd`; the caller keeps it open until `take` or `abandon`. */
  request(fd: number): void {
    if (this.helper.isRetired) return;
    // A request for an fd number asked for before must have been taken or abandoned; if not, the old one is void.
    this.abandon(fd);
    const seq = this.nextSeq++;
    this.outstanding.set(fd, seq);
    this.live.add(seq);
    this.pending.push({ seq, fd });
  }

  /** Sends the requests made since the last flush to the helper, which starts on the first one. */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    if (!this.start()) return;
    this.port!.postMessage(batch);
    this.sent += batch.length;
    this.helper.touch();
  }

  /** Resolves once the helper has answered every request sent to it (for tests: nothing then depends on timing). */
  async drained(): Promise<void> {
    while (this.delivered !== undefined && Atomics.load(this.delivered, 0) < this.sent) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  /**
   * The listing of the directory open as `fd`, if it was requested and the helper delivers it in
   * time; undefined means "list it yourself". Ends the request either way.
   */
  take(fd: number): ListedEntry[] | undefined {
    const seq = this.outstanding.get(fd);
    if (seq === undefined) return undefined;
    // Not sent yet: the scan enters the first child it opened right away, and listing it here costs less
    // than a round trip. Its siblings go to the helper now, to be listed while the scan walks this one.
    const unsent = this.pending.findIndex((request) => request.seq === seq);
    if (unsent !== -1) {
      this.pending.splice(unsent, 1);
      this.forget(fd, seq);
      this.flush();
      return undefined;
    }
    try {
      return this.awaitAnswer(seq);
    } finally {
      this.forget(fd, seq);
    }
  }

  /** The caller closes `fd` without taking its listing: an answer to come is not for whatever reuses the number. */
  abandon(fd: number): void {
    const seq = this.outstanding.get(fd);
    if (seq === undefined) return;
    this.pending = this.pending.filter((request) => request.seq !== seq);
    this.forget(fd, seq);
  }

  private awaitAnswer(seq: number): ListedEntry[] | undefined {
    const deadline = performance.now() + TAKE_DEADLINE_MS;
    for (;;) {
      const seen = this.delivered === undefined ? 0 : Atomics.load(this.delivered, 0);
      this.receive();
      if (this.answers.has(seq)) {
        const packed = this.answers.get(seq)!;
        if (packed === null) return undefined;
        this.helped += 1;
        return unpack(packed);
      }
      const left = deadline - performance.now();
      if (left <= 0) this.stalled = true;
      if (this.helper.isRetired || this.stalled || this.delivered === undefined) return undefined;
      Atomics.wait(this.delivered, 0, seen, left);
    }
  }

  private forget(fd: number, seq: number): void {
    this.outstanding.delete(fd);
    this.live.delete(seq);
    this.answers.delete(seq);
  }

  /** Stops the helper for good; later scans list every directory themselves. */
  async close(): Promise<void> {
    await this.helper.retire();
  }

  private receive(): void {
    if (this.port === undefined) return;
    for (let message = receiveMessageOnPort(this.port); message !== undefined; message = receiveMessageOnPort(this.port)) {
      const answer = message.message as Answer;
      this.stalled = false;
      // Security: the answer of an abandoned request may list another directory that took its fd number.
      if (this.live.has(answer.seq)) this.answers.set(answer.seq, answer.packed);
    }
  }

  /** Starts the helper unless one runs, with a channel and an answer counter of its own. */
  private start(): boolean {
    if (this.helper.isRetired) return false;
    if (this.helper.worker) return true;
    const signal = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const { port1, port2 } = new MessageChannel();
    if (!this.helper.start(() => ({ workerData: { port: port2, signal }, transferList: [port2] }))) {
      port1.close();
      return false;
    }
    this.port = port1;
    this.delivered = new Int32Array(signal);
    this.sent = 0;
    this.stalled = false;
    return true;
  }

  /** The helper ended: requests still outstanding get no answer (their scans list those directories themselves). */
  private forgetAll(): void {
    this.outstanding.clear();
    this.live.clear();
    this.answers.clear();
    this.pending = [];
    this.port?.close();
    this.port = undefined;
    this.delivered = undefined;
  }
}

function unpack(packed: string): ListedEntry[] {
  const entries: ListedEntry[] = [];
  let at = 0;
  while (at < packed.length) {
    const end = packed.indexOf('\0', at);
    entries.push({ name: packed.slice(at + 1, end), kind: KIND_OF_LETTER[packed[at]] });
    at = end + 1;
  }
  return entries;
}

let shared: ListingPrefetch | undefined;

/** The process's one helper, shared by every NodeFileSystem (fd numbers and the working directory are the process's too). */
export function sharedListingPrefetch(): ListingPrefetch {
  shared ??= new ListingPrefetch();
  return shared;
}
