import type { Confirmation } from '../ports/confirmation.port.js';
import type { CopyBatchEntry, CopyBatchOutcome, FileSystemPort, FileVersion, WriteOptions, WriteResult } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import type { WorkContext } from '../work-context.js';
import { confirmOrDecline } from './loss-confirmation.js';
import { ReadThroughFileSystem } from './read-through-file-system.js';

const JOURNAL_OFF = 'the change journal is off';

/**
 * With the change journal off (journal.enabled false) no change can be taken back: before one that
 * overwrites or removes existing content, the call's person is asked (issue 30.3), once per call
 * (the answer covers the rest of the call). Making something where nothing was, or appending, loses
 * nothing and is never asked about. A call that cannot ask (Confirmation.canAsk, no I/O) costs no
 * lookup: every write goes straight through.
 */
export class ConfirmingFileSystem extends ReadThroughFileSystem implements FileSystemPort {
  constructor(
    inner: FileSystemPort,
    private readonly confirmation: Confirmation,
  ) {
    super(inner);
  }

  async writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    // A folder there is refused by the write itself: nothing to ask about.
    if (options.mode === 'replace') await this.askIfThere([path], (kind) => kind !== 'directory', true);
    return this.inner.writeFile(path, data, options);
  }

  createDirectory(path: RootPath, options?: { readonly permissions?: number }): Promise<{ created: boolean }> {
    return this.inner.createDirectory(path, options);
  }

  setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    return this.inner.setDirectoryPermissions(path, permissions);
  }

  async removeFile(path: RootPath, options?: { readonly expected?: FileVersion }): Promise<void> {
    await this.askIfThere([path], (kind) => kind !== 'directory');
    return this.inner.removeFile(path, options);
  }

  async removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    await this.askIfThere([path], (kind) => kind === 'directory');
    return this.inner.removeDirectory(path, work);
  }

  /** A move that replaces nothing can be moved back by hand: only what it replaces is asked about. */
  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    await this.askIfThere([to], () => true);
    return this.inner.rename(from, to);
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    await this.askIfThere([to], (kind) => kind !== 'directory');
    return this.inner.copyFile(from, to);
  }

  async copyBatch(entries: readonly CopyBatchEntry[], options?: { readonly beforeCommit?: () => Promise<void> }): Promise<CopyBatchOutcome> {
    const files = entries.flatMap((entry) => (entry.kind === 'file' ? [entry.to] : []));
    await this.askIfThere(files, (kind) => kind !== 'directory');
    return this.inner.copyBatch(entries, options);
  }

  /** Asks once about the first of `paths` that holds an entry `lost` says would be lost, counting the others; DECLINED unless accepted. */
  private async askIfThere(paths: readonly RootPath[], lost: (kind: string) => boolean, followSymlinks = false): Promise<void> {
    if (paths.length === 0 || !this.confirmation.canAsk()) return;
    const found: RootPath[] = [];
    for (const path of paths) {
      const entry = await this.inner.stat(path, { followSymlinks });
      if (entry !== null && lost(entry.kind)) found.push(path);
    }
    if (found.length === 0) return;
    const [first] = found;
    await confirmOrDecline(this.confirmation, {
      root: first.root.name,
      path: displayPath(first),
      reason: JOURNAL_OFF,
      wholeCall: true,
      ...(found.length > 1 ? { more: found.length - 1 } : {}),
    });
  }
}
