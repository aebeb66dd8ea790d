import { DomainError, errors, inRoot } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { applyPatch, parseUnifiedDiff } from '../patch-engine.js';
import type { FileSystemPort, FileVersion } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import type { Settings } from '../settings.js';
import { decodeUtf8, encodeUtf8, looksBinary, readRange, sizeOverLimit } from './file-text.js';
import { dryRunDiff, type DryRunFields } from './dry-run.js';
import type { RootAccess } from './root-access.js';

export interface PatchFileResult {
  path: string;
  hunks_applied: number;
  /** The file did not exist and was created from the patch. */
  created: boolean;
  /** Where each hunk landed: its header's line, the line its old text was found at, and the difference. */
  hunks: { stated_line: number; applied_line: number; offset: number }[];
}

/** FR-008: apply a unified diff to one file, all hunks or nothing (NFR-015). */
export class PatchFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly settings: Settings,
  ) {}

  async execute(input: { root: string; path: string; patch: string; dry_run?: boolean }): Promise<PatchFileResult | (PatchFileResult & DryRunFields)> {
    const target = this.access.path('patch_file', input.root, input.path);
    const shown = displayPath(target);
    const patch = parseUnifiedDiff(input.patch, target);
    // A dry run takes no lock and writes nothing; it makes every other check the real call makes.
    const locked = <T>(action: () => Promise<T>) => (input.dry_run ? action() : withFileLock(this.fs, target, action));
    return locked(async () => {
      const existing = await this.fs.stat(target, { followSymlinks: true });
      if (existing?.kind === 'directory') throw errors.isADirectory(target.root.name, shown, '; patch_file patches files');
      const original = existing ? await this.readText(target) : { text: '', version: undefined };
      // Everything is computed before the first write, so a failing hunk leaves the file untouched.
      const result = applyPatch(original.text, patch, target);
      const hunks = result.placements.map(({ statedLine, appliedLine }) => ({ stated_line: statedLine, applied_line: appliedLine, offset: appliedLine - statedLine }));
      const outcome = { path: shown, hunks_applied: result.hunksApplied, created: existing === null, hunks };
      if (input.dry_run) return { ...outcome, ...(await dryRunDiff(shown, original.text, result.content, this.settings.maxResultBytes)) };
      await this.write(target, encodeUtf8(result.content), existing !== null, original.version);
      return outcome;
    });
  }

  /**
   * No lost update: an existing file is replaced only if it is still the version the patch was
   * applied to; a new one is created only if nothing appeared meanwhile. Otherwise CONFLICT.
   */
  private async write(target: RootPath, bytes: Uint8Array, existed: boolean, version: FileVersion | undefined): Promise<void> {
    try {
      if (existed) await this.fs.writeFile(target, bytes, { mode: 'replace', createParents: true, expected: version });
      else await this.fs.writeFile(target, bytes, { mode: 'create_exclusive', createParents: true });
    } catch (error) {
      if (!existed && error instanceof DomainError && error.code === 'ALREADY_EXISTS') {
        throw errors.conflict(target.root.name, displayPath(target));
      }
      throw error;
    }
  }

  /** The whole file as text; patching needs it in memory, so max_file_size bounds it. */
  private async readText(target: RootPath): Promise<{ text: string; version?: FileVersion }> {
    const shown = displayPath(target);
    const rootName = target.root.name;
    const file = await this.fs.openFile(target);
    let bytes: Uint8Array;
    const version = file.version;
    try {
      const limit = this.settings.maxFileSize;
      if (file.stat.size > limit) {
        throw new DomainError(
          'FILE_TOO_LARGE',
          `file too large to patch (${sizeOverLimit(file.stat.size, limit)}): ${shown}${inRoot(rootName)}`,
          { root: rootName, attemptedPath: shown },
        );
      }
      bytes = await readRange(file, 0, file.stat.size);
    } finally {
      await file.close();
    }
    if (looksBinary(bytes)) throw errors.invalidArgument(`cannot patch a binary file: ${shown}${inRoot(rootName)}`);
    const text = decodeUtf8(bytes);
    if (text === null) throw errors.invalidArgument(`cannot patch a file that is not valid UTF-8: ${shown}${inRoot(rootName)}`);
    return { text, version };
  }
}
