import type { BeforeImage, ChangeRecord, EntryState, ImageEntry } from '../ports/change-journal.port.js';
import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { EntryStat, FileSystemPort, FileVersion } from '../ports/file-system.port.js';
import { displayPath, type Root, type RootPath } from '../roots.js';
import { isOwnWorkFile } from '../work-files.js';

/** A regular file read whole, with the version it was read at. */
export interface FileCapture {
  /** Null when the file is larger than the journal keeps (journal.max_file_bytes). */
  readonly content: Uint8Array | null;
  readonly version?: FileVersion;
  readonly state: EntryState;
}

export interface TreeCapture {
  readonly image: BeforeImage | null;
  /** Why no image was kept. */
  readonly reason?: string;
  /** What the image leaves out (links, special files), which an undo of the tree cannot bring back. */
  readonly notRestorable?: string;
  /** How many entries below the folder the image leaves out. */
  readonly leftOut: number;
}

/**
 * Reads what the journal keeps and compares: entry states (kind, size, mode, content hash) and
 * before-images, through the file system port (confined like any read), bounded by max_file_bytes.
 */
export class Snapshots {
  constructor(
    private readonly fs: FileSystemPort,
    private readonly hasher: ContentHasher,
    readonly maxFileBytes: number,
  ) {}

  sha256(bytes: Uint8Array): string {
    const hash = this.hasher.create('sha256');
    hash.update(bytes);
    return hash.digest();
  }

  /** Identifies a root's directory in records without naming its host path. */
  rootKey(root: Root): string {
    return this.sha256(new TextEncoder().encode(root.hostPath)).slice(0, 16);
  }

  /** The query filter that keeps only changes of these roots (name -> key). */
  rootKeys(roots: readonly Root[]): ReadonlyMap<string, string> {
    return new Map(roots.map((root) => [root.name, this.rootKey(root)]));
  }

  /** Whether a record's roots are roots of this server, by name and by directory. */
  isHere(record: ChangeRecord, roots: readonly Root[]): boolean {
    const here = (name: string, key: string | undefined) => roots.some((root) => root.name === name && this.rootKey(root) === key);
    return here(record.root, record.rootKey) && (record.toRoot === undefined || here(record.toRoot, record.toRootKey));
  }

  /** What is at `path` now (a final link followed only with `follow`), or null. */
  async state(path: RootPath, follow = false): Promise<EntryState | null> {
    const stat = await this.fs.stat(path, { followSymlinks: follow });
    if (stat === null) return null;
    if (stat.kind !== 'file') return stateOf(stat, null);
    return (await this.file(path, stat)).state;
  }

  /** A file's content (when within max_file_bytes) and state; the read follows in-root links. */
  async file(path: RootPath, stat: EntryStat): Promise<FileCapture> {
    if (stat.size > this.maxFileBytes) return { content: null, state: stateOf(stat, null) };
    const file = await this.fs.openFile(path);
    try {
      const size = file.stat.size;
      if (size > this.maxFileBytes) return { content: null, version: file.version, state: stateOf(file.stat, null) };
      const content = size === 0 ? new Uint8Array(0) : Uint8Array.from(await file.read(0, size));
      return { content, version: file.version, state: { ...stateOf(file.stat, null), size: content.byteLength, sha256: this.sha256(content) } };
    } finally {
      await file.close();
    }
  }

  /** A folder's tree (folders and files, pre-order), or why it cannot be kept. */
  async tree(path: RootPath, stat: EntryStat): Promise<TreeCapture> {
    const entries: ImageEntry[] = [{ relativePath: '', kind: 'directory', mode: stat.permissions }];
    const left: string[] = [];
    let bytes = 0;
    for await (const batch of this.fs.scanTree(path, { select: () => true, readContents: { maxBytes: this.maxFileBytes }, includeWorkNames: true })) {
      for (const { relativePath, stat: entry, contents } of batch.selected) {
        if (entry.kind === 'directory') {
          entries.push({ relativePath, kind: 'directory', mode: entry.permissions });
          continue;
        }
        if (entry.kind !== 'file') {
          // Left out, and said so: the folder's regular files stay undoable, only this entry is lost.
          left.push(`${displayPath(childOf(path, relativePath))} (a ${entry.kind === 'symlink' ? 'symbolic link' : 'special file'})`);
          continue;
        }
        // A temp or lock file of a write in progress, or a file named like one: brought back, a real one
        // would be litter, or a lock that holds writers off; left out, a user's would be lost.
        if (isOwnWorkFile(relativePath.slice(relativePath.lastIndexOf('/') + 1))) return { image: null, reason: `the folder holds ${relativePath}, named like a write in progress, which an undo cannot tell from one`, leftOut: 0 };
        bytes += entry.size;
        if (bytes > this.maxFileBytes) return { image: null, reason: tooLarge('folder', bytes, this.maxFileBytes), leftOut: 0 };
        const content = contents ? Uint8Array.from(contents) : (await this.file(childOf(path, relativePath), entry)).content;
        if (content === null) return { image: null, reason: tooLarge('folder', bytes, this.maxFileBytes), leftOut: 0 };
        entries.push({ relativePath, kind: 'file', mode: entry.permissions, content });
      }
    }
    if (left.length === 0) return { image: { entries }, leftOut: 0 };
    const shown = left.length > 3 ? `${left.slice(0, 3).join(', ')} and ${left.length - 3} more` : left.join(', ');
    return { image: { entries }, leftOut: left.length, notRestorable: `an undo brings the folder back without ${shown}, which it cannot recreate` };
  }
}

export function stateOf(stat: EntryStat, sha256: string | null): EntryState {
  return { kind: stat.kind, size: stat.kind === 'file' ? stat.size : 0, mode: stat.permissions, sha256 };
}

export function tooLarge(what: 'file' | 'folder', bytes: number, max: number): string {
  return `the ${what} was larger than the journal keeps (${bytes} bytes > journal.max_file_bytes ${max}), so its previous content was not kept`;
}

export function childOf(path: RootPath, relativePath: string): RootPath {
  return relativePath === '' ? path : { root: path.root, segments: [...path.segments, ...relativePath.split('/')] };
}

/** Whether `now` is the state a change left (what undo requires unless forced); null when it is, else what differs. */
export function difference(expected: EntryState | null, now: EntryState | null): string | null {
  if (expected === null) return now === null ? null : `something (a ${now.kind}) is there now`;
  if (now === null) return `nothing is there now (expected a ${expected.kind})`;
  if (expected.kind !== now.kind) return `a ${now.kind} is there now, not a ${expected.kind}`;
  if (expected.kind !== 'file') return expected.mode === now.mode || expected.kind === 'directory' ? null : `its mode is ${octal(now.mode)}, not ${octal(expected.mode)}`;
  if (expected.size !== now.size) return `its size is ${now.size} bytes, not ${expected.size}`;
  if (expected.sha256 !== null && now.sha256 !== null && expected.sha256 !== now.sha256) return 'its content changed since';
  if (expected.mode !== now.mode) return `its mode is ${octal(now.mode)}, not ${octal(expected.mode)}`;
  return null;
}

export function octal(mode: number): string {
  return `0${mode.toString(8)}`;
}
