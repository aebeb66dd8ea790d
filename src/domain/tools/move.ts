import { DomainError, errors, inRoot } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import type { EntryStat } from '../ports/file-system.port.js';
import { displayPath, isRootItself, type RootPath } from '../roots.js';
import { assertNotIntoItself, copySnapshot, directoryOverFile, ensureParent, placeSource, snapshotTree } from '../tree-copier.js';
import { Transfer, type TransferInput } from './transfer.js';
import type { WorkContext } from '../work-context.js';

export type MoveInput = TransferInput;

export interface MoveResult {
  readonly source: string;
  readonly destination: string;
  readonly cross_root: boolean;
}

/** How many offending entries an error names before it says "and N more". */
const NAMED_IN_ERROR = 5;

/** FR-015: move (rename) a file, directory or link, within a root or across two roots. */
export class Move extends Transfer {
  async execute(input: MoveInput, work?: WorkContext): Promise<MoveResult> {
    const { source, destination } = this.endpoints('move', input);
    if (isRootItself(source)) throw errors.invalidArgument(`cannot move root directory${inRoot(source.root.name)}`);
    // Not followed: a link is moved as the link itself.
    const sourceStat = await this.fs.stat(source);
    if (sourceStat === null) throw errors.notFound('source', source.root.name, displayPath(source));
    const { target, existing } = await placeSource(this.fs, source, destination);
    assertNotIntoItself('move', source, target);
    if (existing?.kind === 'directory') {
      const shown = displayPath(target);
      throw new DomainError('ALREADY_EXISTS', `destination is an existing directory: ${shown}${inRoot(target.root.name)}`, {
        root: target.root.name,
        attemptedPath: shown,
      });
    }
    if (existing !== null && sourceStat.kind === 'directory') throw directoryOverFile('move', target);

    await ensureParent(this.fs, target);
    // Replacing a file another tool is editing waits for that edit instead of racing it.
    await withFileLock(this.fs, target, async () => {
      if ((await this.fs.rename(source, target)) === 'cross-device') await this.copyThenRemove(source, sourceStat, target, work);
    });
    return {
      source: displayPath(source),
      destination: displayPath(target),
      cross_root: source.root.name !== target.root.name,
    };
  }

  /**
   * FR-015: across file systems a move is a copy then a delete (not atomic). Until the copy
   * is complete the source is untouched; if the copy fails, what it created is removed.
   */
  private async copyThenRemove(source: RootPath, sourceStat: EntryStat, target: RootPath, work?: WorkContext): Promise<void> {
    if (sourceStat.kind === 'file') {
      // copyFile is atomic: on failure nothing (or the old file) is at the target.
      await this.fs.copyFile(source, target);
      await this.removeSource(() => this.fs.removeFile(source), target);
      return;
    }
    if (sourceStat.kind !== 'directory') throw uncopyable(source, [displayPath(source)]);
    const entries = await snapshotTree(this.fs, source, work);
    // Links and special files cannot be recreated by a copy: moving them would lose them.
    const lost = entries.filter((entry) => entry.stat.kind !== 'file' && entry.stat.kind !== 'directory');
    if (lost.length > 0) throw uncopyable(source, lost.map((entry) => displayPath(entry.path)));
    try {
      await copySnapshot(this.fs, source, entries, target, work);
    } catch (error) {
      // The target did not exist before (an existing directory is refused above): all of it is ours to remove.
      const cleaned = await this.fs.removeDirectory(target).then(
        () => true,
        () => false,
      );
      if (cleaned || !(error instanceof DomainError)) throw error;
      throw new DomainError(
        error.code,
        `${error.message}; a partial copy remains at ${displayPath(target)}${inRoot(target.root.name)}`,
        error.logDetails,
      );
    }
    await this.removeSource(() => this.fs.removeDirectory(source), target);
  }

  private async removeSource(remove: () => Promise<void>, target: RootPath): Promise<void> {
    try {
      await remove();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new DomainError(
        error.code,
        `copied to ${displayPath(target)}${inRoot(target.root.name)} but could not remove the source: ${error.message}`,
        error.logDetails,
      );
    }
  }
}

function uncopyable(source: RootPath, paths: readonly string[]): DomainError {
  const more = paths.length > NAMED_IN_ERROR ? `, and ${paths.length - NAMED_IN_ERROR} more` : '';
  const named = paths.slice(0, NAMED_IN_ERROR).join(', ') + more;
  return errors.invalidArgument(
    `cannot move ${displayPath(source)}${inRoot(source.root.name)} to another file system: ` +
      `symlinks and special files cannot be copied there (${named}); copy the rest and remove the source instead`,
  );
}
