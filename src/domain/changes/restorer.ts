import { DomainError, errors } from '../errors.js';
import type { BeforeImage, ChangeRecord, EntryState, ImageEntry } from '../ports/change-journal.port.js';
import type { EntryKind, FileSystemPort } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { childOf, octal } from './snapshots.js';

/** The mode a folder an undo recreates has until its files are back: its owner's alone, so no folder is ever more open than it was. */
const RECREATED_FOLDER_MODE = 0o700;

/** What a dry run's newer undos would leave (issue 32), for the restorer's checks to look at instead of the disk. */
export interface SimulatedTree {
  /** A path as the simulated undos left it (null: nothing), or undefined where they did not touch it. */
  simulated(path: RootPath): EntryState | null | undefined;
  /** Whether the simulated undos put a file anywhere below `folder`. */
  putFileBelow(folder: RootPath): boolean;
}

/**
 * Puts back what a change replaced, through the file system it is given (the journaling one, so
 * the undo is journaled and confined, locked and renamed like any write). `force` writes over
 * whatever is there now instead of refusing.
 */
export class Restorer {
  constructor(private readonly fs: FileSystemPort) {}

  /** Returns what could not be put back as it was (a folder's mode), or undefined. */
  async restore(record: ChangeRecord, image: BeforeImage | null, source: RootPath, target: RootPath, force: boolean): Promise<string | undefined> {
    if (record.op === 'rmdir') return this.putTree(target, image?.entries ?? [], force);
    await this.undoEntry(record, image?.entries[0], source, target, force);
    return undefined;
  }

  /**
   * The checks a restore makes before it writes, for a dry run (issue 32): applied to what the newer
   * undos would leave, so the dry run refuses what the real call would. Throws the restore's DomainError.
   */
  async check(record: ChangeRecord, image: BeforeImage | null, target: RootPath, force: boolean, simulated: SimulatedTree): Promise<void> {
    const kindAt = async (path: RootPath) => {
      const state = simulated.simulated(path);
      return state === undefined ? ((await this.fs.stat(path))?.kind ?? null) : (state?.kind ?? null);
    };
    const own = image?.entries[0];
    switch (record.op) {
      case 'mkdir':
        return this.assertEmptied(target, force, simulated);
      case 'modify':
      case 'remove':
        assertFileFits(target, own, await kindAt(target), record.op === 'modify' || force);
        return;
      case 'copy':
        if (own) assertFileFits(target, own, await kindAt(target), true);
        return;
      case 'rmdir':
        for (const entry of image?.entries ?? []) {
          const at = childOf(target, entry.relativePath);
          const kind = await kindAt(at);
          if (entry.kind === 'directory') assertFolderFits(at, kind);
          else if (kind === null || force) assertFileFits(at, entry, kind, force);
        }
        return;
    }
  }

  /** Every change but a folder's removal: one entry made, put back, moved back or removed. */
  private async undoEntry(record: ChangeRecord, own: ImageEntry | undefined, source: RootPath, target: RootPath, force: boolean): Promise<void> {
    switch (record.op) {
      case 'create':
        return this.remove(target);
      case 'modify':
        return this.putFile(target, own, true);
      case 'remove':
        return this.putFile(target, own, force);
      case 'mkdir':
        return this.removeEmptyTree(target, force);
      case 'copy':
        return own ? this.putFile(target, own, true) : this.remove(target);
      case 'move':
        // A folder moved back by a rename keeps its own mode, and those of everything in it.
        if ((await this.fs.stat(source)) !== null) {
          if (!force) throw errors.alreadyExists(source.root.name, displayPath(source), '; the origin of the move is taken again');
          await this.remove(source);
        }
        if ((await this.fs.rename(target, source)) === 'cross-device') {
          throw errors.conflict(target.root.name, displayPath(target), 'the move crossed file systems and cannot be renamed back');
        }
        if (own) await this.putFile(target, own, false);
        return;
    }
  }

  /**
   * Start-up recovery: finishes a restore a crash cut short, from the point it reached. A move
   * renamed back only needs what it had replaced put back (running it whole would take the origin
   * for someone else's); a tree gets what is missing, and its recorded mode back on each folder the
   * cut-short restore had made (still RECREATED_FOLDER_MODE); anything else is restored again, which
   * leaves what is already back as it is.
   */
  async resume(record: ChangeRecord, image: BeforeImage | null, source: RootPath, target: RootPath, force: boolean): Promise<string | undefined> {
    if (record.op === 'rmdir') return this.putTree(target, image?.entries ?? [], force, true);
    if (record.op !== 'move') return this.restore(record, image, source, target, force);
    const own = image?.entries[0];
    if (own && (await this.fs.stat(target)) === null) await this.putFile(target, own, false);
    return undefined;
  }

  /** A file back with its content and mode: replaced in place when something is there, else created. */
  private async putFile(path: RootPath, entry: ImageEntry | undefined, replace: boolean): Promise<void> {
    const now = await this.fs.stat(path);
    const { content, mode } = assertFileFits(path, entry, now?.kind ?? null, replace);
    if (now !== null) {
      // Content and mode in one write, so the undo is one change, itself undone whole (issue 32):
      // never a remove and a create, whose last an "undo my last change" would take for the user's.
      await this.fs.writeFile(path, content, { mode: 'replace', createParents: false, permissions: mode });
      return;
    }
    await this.fs.writeFile(path, content, { mode: 'create_exclusive', createParents: true, newFilePermissions: mode });
  }

  /**
   * A removed folder back: every folder and file of its image that is missing (a partial removal
   * leaves some). Security: an undo never widens permissions. Each folder it makes is 0700 while its
   * files go back, then gets its recorded mode, deepest first (a folder its owner may not write or
   * search would refuse its own entries). A mode that cannot be set leaves the folder 0700, and says so.
   */
  private async putTree(path: RootPath, entries: readonly ImageEntry[], force: boolean, resuming = false): Promise<string | undefined> {
    const made: ImageEntry[] = [];
    for (const entry of entries) {
      const at = childOf(path, entry.relativePath);
      const now = await this.fs.stat(at);
      if (entry.kind === 'directory') {
        assertFolderFits(at, now?.kind ?? null);
        if (now === null && (await this.fs.createDirectory(at, { permissions: RECREATED_FOLDER_MODE })).created) made.push(entry);
        else if (resuming && now?.permissions === RECREATED_FOLDER_MODE) made.push(entry);
      } else if (now === null || force) {
        await this.putFile(at, entry, force);
      }
    }
    const unrestored: string[] = [];
    for (const entry of made.reverse()) {
      if (entry.mode === RECREATED_FOLDER_MODE) continue;
      const at = childOf(path, entry.relativePath);
      const mode = await this.fs.setDirectoryPermissions(at, entry.mode).catch(unlessDomainError);
      if (mode !== entry.mode) unrestored.push(`${displayPath(at)} (${octal(entry.mode)} before, ${octal(mode ?? RECREATED_FOLDER_MODE)} now)`);
    }
    return unrestored.length === 0 ? undefined : `the mode of ${unrestored.length === 1 ? 'folder' : 'folders'} ${unrestored.join(', ')} could not be restored; none was left more open than it was`;
  }

  /** A folder a change created goes again, unless something has been put in it since (then only with force). */
  private async removeEmptyTree(path: RootPath, force: boolean): Promise<void> {
    await this.assertEmptied(path, force);
    await this.fs.removeDirectory(path);
  }

  /** Refuses, unless forced, when a file is in the folder: on disk, or as a dry run's simulated undos left it. */
  private async assertEmptied(path: RootPath, force: boolean, simulated?: SimulatedTree): Promise<void> {
    if (force) return;
    let holdsFile = simulated?.putFileBelow(path) ?? false;
    // A folder only the simulation put back is not on disk to scan.
    const scan = !holdsFile && (simulated === undefined || (await this.fs.stat(path))?.kind === 'directory');
    if (scan) {
      for await (const batch of this.fs.scanTree(path, { select: (_name, kind) => kind !== 'directory' })) {
        holdsFile = batch.selected.some((entry) => stillAFile(simulated?.simulated(childOf(path, entry.relativePath))));
        if (holdsFile) break;
      }
    }
    if (holdsFile) throw errors.conflict(path.root.name, displayPath(path), 'the folder is no longer empty');
  }

  private async remove(path: RootPath): Promise<void> {
    await this.fs.removeFile(path);
  }
}

/** A file goes back from its before-image, only where there is no folder, and over a file only when it may replace it. */
function assertFileFits(path: RootPath, entry: ImageEntry | undefined, kind: EntryKind | null, replace: boolean): ImageEntry & { readonly content: Uint8Array } {
  if (!entry?.content) throw errors.conflict(path.root.name, displayPath(path), 'no before-image to restore');
  if (kind === 'directory') throw errors.isADirectory(path.root.name, displayPath(path));
  if (kind !== null && !replace) throw errors.alreadyExists(path.root.name, displayPath(path));
  return { ...entry, content: entry.content };
}

/** A folder goes back where nothing is, or is kept where it already is; never over anything else. */
function assertFolderFits(path: RootPath, kind: EntryKind | null): void {
  if (kind !== null && kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
}

/** A file found on disk is still there unless a simulated undo took it (or a folder above it) away. */
function stillAFile(simulated: EntryState | null | undefined): boolean {
  return simulated === undefined || (simulated !== null && simulated.kind !== 'directory');
}

/** A refusal of the file system (permission, a folder gone meanwhile) as null; anything else is thrown on. */
function unlessDomainError(error: unknown): null {
  if (error instanceof DomainError) return null;
  throw error;
}
