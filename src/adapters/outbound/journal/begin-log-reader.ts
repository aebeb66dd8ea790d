import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BeforeImage } from '../../../domain/ports/change-journal.port.js';
import { CHANGE_ID } from '../../../domain/changes/change-id.js';
import { frames, splitBegin } from './begin-log-format.js';
import { decodeImageFile } from './image-files.js';

/** A change another server committed, read from its begin log before its image file is written. */
export interface LoggedChange {
  /** What its image file will say (the record, its owner), but committed. */
  readonly stored: unknown;
  readonly imageBytes: number;
  /** Where its image file's bytes are in the segment. */
  readonly segment: string;
  readonly at: number;
  readonly length: number;
}

interface Scanned {
  size: number;
  /** Where the next whole frame starts. */
  offset: number;
  readonly begun: Map<string, Omit<LoggedChange, 'segment'>>;
  readonly committed: Set<string>;
}

/**
 * The begin logs of the other servers sharing this journal directory, read as they grow: a server
 * writes a change's image file just after the call, so until then another server learns of the
 * change from the log (the page cache is shared), and lists and undoes it at once, as before the
 * log existed. Only what was appended since the last read is read.
 */
export class ForeignBeginLogs {
  private readonly scanned = new Map<string, Scanned>();

  constructor(
    private readonly dir: string,
    private readonly instance: string,
  ) {}

  /** The other servers' segments now, with their sizes: one listing and one stat each. */
  look(): ReadonlyMap<string, number> {
    return new Map(this.foreign().map((name) => [name, sizeOf(join(this.dir, name))]));
  }

  /** Whether a look differs from what the last read saw (a segment grew, came or went). */
  changed(look: ReadonlyMap<string, number>): boolean {
    if (look.size !== this.scanned.size) return true;
    return [...look].some(([name, size]) => this.scanned.get(name)?.size !== size);
  }

  /** The committed changes in the other servers' logs, by id, as of `look` (taken now if not given). */
  read(look: ReadonlyMap<string, number> = this.look()): Map<string, LoggedChange> {
    for (const name of [...this.scanned.keys()]) if (!look.has(name)) this.scanned.delete(name);
    const changes = new Map<string, LoggedChange>();
    for (const [name, size] of look) {
      const scanned = this.scan(name, size);
      for (const id of scanned.committed) {
        const begun = scanned.begun.get(id);
        if (begun !== undefined) changes.set(id, { ...begun, segment: join(this.dir, name) });
      }
    }
    return changes;
  }

  /** The before-image of a change read from a log; null when the segment is gone (its image file is written by then). */
  image(change: LoggedChange): BeforeImage | null {
    let fd: number | undefined;
    try {
      fd = openSync(change.segment, 'r');
      const bytes = Buffer.alloc(change.length);
      if (readSync(fd, bytes, 0, change.length, change.at) !== change.length) return null;
      return decodeImageFile(bytes);
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private foreign(): string[] {
    try {
      return readdirSync(this.dir).filter((name) => name.endsWith('.log') && !name.startsWith(`${this.instance}-`));
    } catch {
      return [];
    }
  }

  /** Reads what `name` gained since the last scan, up to `size` (what a look saw; more is read next time). */
  private scan(name: string, size: number): Scanned {
    const file = join(this.dir, name);
    const scanned = this.scanned.get(name) ?? { size: 0, offset: 0, begun: new Map(), committed: new Set() };
    this.scanned.set(name, scanned);
    if (size === scanned.size) return scanned;
    scanned.size = size;
    let fd: number | undefined;
    try {
      fd = openSync(file, 'r');
      const bytes = Buffer.alloc(Math.max(0, size - scanned.offset));
      const read = bytes.subarray(0, readSync(fd, bytes, 0, bytes.byteLength, scanned.offset));
      // Up to the first frame not yet whole (one being written): the next read starts there.
      const base = scanned.offset;
      for (const { kind, payload, end } of frames(read)) {
        const start = base + end - payload.byteLength;
        if (kind === 'begin') this.begun(scanned, payload, start);
        else if (kind === 'commit') scanned.committed.add(payload.toString('latin1'));
        else if (kind === 'gone') {
          scanned.begun.delete(payload.toString('latin1'));
          scanned.committed.delete(payload.toString('latin1'));
        }
        scanned.offset = base + end;
      }
    } catch {
      // Removed by its checkpoint meanwhile: its image files are written.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return scanned;
  }

  private begun(scanned: Scanned, payload: Buffer, start: number): void {
    const { id, at } = splitBegin(payload);
    // Security: the id becomes a record's id, which names files; only a well-formed one is taken.
    if (!CHANGE_ID.test(id)) return;
    const image = payload.subarray(at);
    const newline = image.indexOf(0x0a);
    try {
      const header = JSON.parse(image.subarray(0, newline).toString('utf8')) as { record?: { record?: unknown; owner?: unknown } };
      if (header.record?.record === undefined) return;
      scanned.begun.set(id, {
        stored: { ...header.record, state: 'committed' },
        imageBytes: image.byteLength - newline - 1,
        at: start + at,
        length: image.byteLength,
      });
    } catch {
      // Not a begin this version wrote: left to the image file.
    }
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}
