import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readHead, writeSynced } from './image-files.js';
import type { Held } from './record-index.js';

/** The checkpoint is written only once both directories have been still this long (past a coarse mtime's tick). */
const QUIET_MS = 100;
const VERSION = 1;

/** The first line of a checkpoint: what start-up reads of it. */
export interface CheckpointHead {
  readonly v: number;
  /** mtimeNs of records/ and claims/ when it was written: any change to either since makes it stale. */
  readonly records: string;
  readonly claims: string;
  /** Bytes of before-images, and of the records' files, in all. */
  readonly bytes: number;
  readonly stored: number;
  /** How many committed records the body holds (one a line), and the largest id among them. */
  readonly count: number;
  readonly maxId: string;
  /** The earliest time (ms) among them: retention prunes nothing of them before then. */
  readonly oldest: number;
  /**
   * The records start-up needs, in full: those not committed (few: a crash's, or another
   * deployment's) and those with an undo's claim (recovery looks each claim's record up).
   */
  readonly eager: [string, Held][];
}

/** What the checkpoint says, and how to read its body (null when it is torn: then the directory is read). */
export interface Adopted {
  readonly head: CheckpointHead;
  body(): [string, Held][] | null;
}

/**
 * The disk journal's record index as of a moment the records did not change (issue 31): `index`
 * in the journal directory, a head line then one committed record a line. Start-up reads the head
 * alone when records/ and claims/ are unchanged since it was written (their mtimes), so its cost
 * does not grow with the journal; the body is read when a call first needs the records. Written
 * when the journal is idle and at close, only when this server's index is known to be the
 * directory's: no other server's begin log in sight, and the checkpoint file the one this server
 * last read or wrote (another server closing writes its own).
 */
export class RecordCheckpoint {
  private readonly file: string;
  /** The checkpoint file as this server last saw it (ino and mtime), or '' when absent. */
  private known = '';
  /** Its size then: it counts toward journal.max_bytes like every file in the journal directory. */
  private size = 0;

  constructor(
    dir: string,
    private readonly records: string,
    private readonly claims: string,
  ) {
    this.file = join(dir, 'index');
  }

  /** The checkpoint, when it still describes the directories; null when absent, stale or torn. */
  adopt(): Adopted | null {
    this.see();
    const head = readHead(this.file);
    if (head === null) return null;
    let parsed: CheckpointHead;
    try {
      parsed = JSON.parse(head.line) as CheckpointHead;
    } catch {
      return null;
    }
    const [records, claims] = this.mtimes();
    if (!wellFormed(parsed) || parsed.records !== records || parsed.claims !== claims) return null;
    const at = this.known;
    // Read only if it is still the file adopted: another server may have written a newer one since.
    const body = () => (signature(this.file) === at ? this.readBody(parsed.count) : null);
    return { head: parsed, body };
  }

  /**
   * Writes the checkpoint of `entries` if the directories are still ('later' if not).
   * `entries` is called after the directories' mtimes are taken, so what it gives is at least as new.
   */
  async write(totals: { bytes: number; stored: number }, entries: () => Iterable<[string, Held]>): Promise<'written' | 'later' | 'never'> {
    // Another server wrote one since: its records may be missing from this server's index.
    if (signature(this.file) !== this.known) return 'never';
    const [records, claims] = this.mtimes();
    const newest = Math.max(Number(BigInt(records) / 1_000_000n), Number(BigInt(claims) / 1_000_000n));
    // A change within the same (coarse) mtime tick as the one taken would go unseen: only a still directory is vouched for.
    if (Date.now() - newest < QUIET_MS) return 'later';
    const eager: [string, Held][] = [];
    const lines: string[] = [];
    let maxId = '';
    let oldest = Number.MAX_SAFE_INTEGER;
    const claimed = new Set(readdirSync(this.claims));
    for (const [id, held] of entries()) {
      if (!held.committed || claimed.has(id)) eager.push([id, held]);
      else {
        lines.push(JSON.stringify([id, held]));
        oldest = Math.min(oldest, Date.parse(held.record.time));
      }
      if (id > maxId) maxId = id;
    }
    const head: CheckpointHead = { v: VERSION, records, claims, bytes: totals.bytes, stored: totals.stored, count: lines.length, maxId, oldest, eager };
    const temp = `${this.file}.tmp`;
    // Security: the same private directory as the records; 0600 like them.
    await writeSynced(temp, Buffer.from(`${JSON.stringify(head)}\n${lines.join('\n')}\n`));
    await rename(temp, this.file);
    this.see();
    return 'written';
  }

  /** Bytes of the checkpoint file, as last seen. */
  bytes(): number {
    return this.size;
  }

  private see(): void {
    this.known = signature(this.file);
    this.size = this.known === '' ? 0 : statSync(this.file).size;
  }

  private readBody(count: number): [string, Held][] | null {
    try {
      const text = readFileSync(this.file, 'utf8');
      const lines = text.slice(text.indexOf('\n') + 1).split('\n');
      const entries = lines.filter((line) => line !== '').map((line) => JSON.parse(line) as [string, Held]);
      return entries.length === count ? entries : null;
    } catch {
      return null;
    }
  }

  private mtimes(): [string, string] {
    return [statSync(this.records, { bigint: true }).mtimeNs.toString(), statSync(this.claims, { bigint: true }).mtimeNs.toString()];
  }
}

/** A head this version wrote (another version's, or a damaged one, is not used: the directory is read). */
function wellFormed(head: CheckpointHead): boolean {
  return (
    typeof head === 'object' &&
    head !== null &&
    head.v === VERSION &&
    [head.bytes, head.stored, head.count, head.oldest].every(Number.isSafeInteger) &&
    typeof head.maxId === 'string' &&
    Array.isArray(head.eager)
  );
}

function signature(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.ino}:${stat.mtimeNs}`;
  } catch {
    return '';
  }
}
