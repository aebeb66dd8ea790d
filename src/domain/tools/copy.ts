import { errors } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { displayPath } from '../roots.js';
import {
  assertNotIntoItself,
  assertNotCopiedIntoItself,
  copySnapshot,
  directoryOverFile,
  ensureParent,
  placeSource,
  snapshotTree,
  type SkippedEntry,
} from '../tree-copier.js';
import { Transfer, type TransferInput } from './transfer.js';
import type { WorkContext } from '../work-context.js';

export type CopyInput = TransferInput;

export interface CopyResult {
  readonly source: string;
  readonly destination: string;
  readonly is_directory: boolean;
  /** Bytes: the file's, or the total copied for a directory. */
  readonly size: number;
  readonly files_copied: number;
  readonly skipped: SkippedEntry[];
}

/** FR-014: copy a file or a directory tree, within a root or across two roots. */
export class Copy extends Transfer {
  async execute(input: CopyInput, work?: WorkContext): Promise<CopyResult> {
    const { source, destination } = this.endpoints('copy', input);
    // A named in-root link is followed (the port refuses one that leaves the root).
    const sourceStat = await this.fs.stat(source, { followSymlinks: true });
    if (sourceStat === null) throw errors.notFound('source', source.root.name, displayPath(source));
    const { target, existing } = await placeSource(this.fs, source, destination);
    assertNotIntoItself('copy', source, target);

    if (sourceStat.kind === 'directory') {
      await assertNotCopiedIntoItself(this.fs, source, target);
      if (existing !== null && existing.kind !== 'directory') throw directoryOverFile('copy', target);
      const entries = await snapshotTree(this.fs, source, work);
      const outcome = await copySnapshot(this.fs, source, entries, target, work);
      return {
        source: displayPath(source),
        destination: displayPath(target),
        is_directory: true,
        size: outcome.size,
        files_copied: outcome.filesCopied,
        skipped: outcome.skipped,
      };
    }
    if (sourceStat.kind !== 'file') throw errors.notAFile(source.root.name, displayPath(source));
    if (existing?.kind === 'directory') throw errors.isADirectory(target.root.name, displayPath(target));
    await ensureParent(this.fs, target);
    // Replacing a file another tool is editing waits for that edit instead of racing it.
    const { size } = await withFileLock(this.fs, target, () => this.fs.copyFile(source, target));
    return {
      source: displayPath(source),
      destination: displayPath(target),
      is_directory: false,
      size,
      files_copied: 1,
      skipped: [],
    };
  }
}
