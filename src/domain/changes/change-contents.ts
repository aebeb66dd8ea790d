import type { PathPolicy } from '../path-policy.js';
import type { ChangeJournal, ChangeRecord } from '../ports/change-journal.port.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { diffableVersion } from '../text-diff.js';
import { difference, type Snapshots } from './snapshots.js';

const EMPTY = new Uint8Array(0);

/** Where a change's before-image and after-state are found, for diffs and undo. */
export class ChangeContents {
  constructor(
    private readonly journal: ChangeJournal,
    private readonly paths: PathPolicy,
    private readonly fs: FileSystemPort,
    private readonly snapshots: Snapshots,
  ) {}

  /** The path a change's after-state is at (the destination of a move or copy). */
  target(record: ChangeRecord): RootPath {
    return this.resolve(record.toRoot ?? record.root, record.toPath ?? record.path);
  }

  source(record: ChangeRecord): RootPath {
    return this.resolve(record.root, record.path);
  }

  /**
   * A file change's content before and after, when both are known: the before-image (or nothing,
   * for a create) and the file as it is now, if it is still the change's after-state.
   */
  async versions(record: ChangeRecord): Promise<{ before: Uint8Array; after: Uint8Array } | null> {
    if (!hasVersions(record)) return null;
    const image = await this.journal.image(record.id);
    const before = record.op === 'create' ? EMPTY : (image?.entries[0]?.content ?? (record.before === null ? EMPTY : null));
    if (before === null) return null;
    if (record.after === null) return { before, after: EMPTY };
    const target = this.target(record);
    const stat = await this.fs.stat(target, { followSymlinks: record.op !== 'copy' });
    if (stat === null || stat.kind !== 'file') return null;
    const now = await this.snapshots.file(target, stat);
    if (now.content === null || difference(record.after, now.state) !== null) return null;
    return { before, after: now.content };
  }

  /**
   * What is at a change's target now, when that is a file of diffable size (EMPTY where nothing is):
   * what a forced undo of a change edited since would write over.
   */
  async current(record: ChangeRecord): Promise<Uint8Array | null> {
    const target = this.target(record);
    const stat = await this.fs.stat(target, { followSymlinks: record.op !== 'copy' });
    if (stat === null) return EMPTY;
    if (stat.kind !== 'file' || !diffableVersion(stat.size)) return null;
    return (await this.snapshots.file(target, stat)).content;
  }

  /** A client's path in a root, confined and spelt as records spell it. */
  shownPath(rootName: string, path: string): string {
    return displayPath(this.resolve(rootName, path));
  }

  private resolve(rootName: string, path: string): RootPath {
    return this.paths.resolve(this.paths.root(rootName), path);
  }
}

/** Whether a change is one of a file's content (create, modify, remove, copy), whose versions can be diffed. */
export function hasVersions(record: ChangeRecord): boolean {
  return ['create', 'modify', 'remove', 'copy'].includes(record.op);
}

/** Whether both versions of a change are small enough to be read for a diff; known from the record, before reading. */
export function diffableSizes(record: ChangeRecord): boolean {
  return diffableVersion(record.before?.size ?? 0) && diffableVersion(record.after?.size ?? 0);
}
