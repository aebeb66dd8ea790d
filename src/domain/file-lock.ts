import { DomainError } from './errors.js';
import type { FileSystemPort } from './ports/file-system.port.js';
import type { RootPath } from './roots.js';

/**
 * Runs a read-modify-write of one file while holding its lock (FileSystemPort.lockFile), so
 * concurrent edits of the file, in this process or another one using the lock, apply one
 * after the other on top of each other instead of losing all but the last. When the parent
 * directory does not exist yet there is nothing to lock: the caller's write then creates the
 * file exclusively or is a plain whole-file write.
 */
export async function withFileLock<T>(files: FileSystemPort, path: RootPath, action: () => Promise<T>): Promise<T> {
  let lock;
  try {
    lock = await files.lockFile(path);
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'NOT_A_DIRECTORY')) return action();
    throw error;
  }
  try {
    return await action();
  } finally {
    await lock.release();
  }
}
