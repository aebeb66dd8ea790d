import { closeSync, fstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { errors } from '../../../domain/errors.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';
import { errnoOf, translate } from './node-errors.js';
import { FILE_READ_FLAGS, Walk, type HasFd, type Walker } from './walker.js';

export interface Opener<H extends HasFd> {
  open(entry: string): H | Promise<H>;
  stat(handle: H): Stats | Promise<Stats>;
  close(handle: H): void | Promise<void>;
}

// Fast path: open + fstat of a file we will read are short metadata syscalls; done synchronously
// they cost less than one libuv thread-pool hop. Security: same flags, same checks, same descriptor.
export const descriptorOpener: Opener<{ fd: number }> = {
  open: (entry) => ({ fd: openSync(entry, FILE_READ_FLAGS) }),
  stat: (handle) => fstatSync(handle.fd),
  close: (handle) => closeSync(handle.fd),
};

// copy hands the source to the writer, which streams it through a FileHandle.
export const fileHandleOpener: Opener<FileHandle> = {
  open: (entry) => open(entry, FILE_READ_FLAGS),
  stat: (handle) => handle.stat(),
  close: (handle) => handle.close(),
};

/**
 * Opens a regular file (in-root links followed) and checks that what was opened is what was
 * judged. Security: every check (regular file, kernel path inside the root) is made on the
 * descriptor we then hand out, never on the path again.
 */
export async function openRegularFile<H extends HasFd>(walker: Walker, path: RootPath, missing: 'file' | 'source file', opener: Opener<H>): Promise<{ handle: H; stats: Stats }> {
  const walk = new Walk(path);
  for (;;) {
    const found = await walker.locate(path, walk, { followFinal: true });
    try {
      assertRegularFile(found.stats, path, missing);
      let handle: H;
      try {
        handle = await opener.open(found.parent.entry(found.name));
      } catch (error) {
        // A link was swapped in after the lstat: judge it afresh.
        if (errnoOf(error) === 'ELOOP') {
          walk.hop();
          continue;
        }
        throw translate(error, path, missing);
      }
      try {
        const stats = await opener.stat(handle);
        assertRegularFile(stats, path, missing);
        walker.verifySync(handle, path.root, walk);
        return { handle, stats };
      } catch (error) {
        await opener.close(handle);
        throw translate(error, path, missing);
      }
    } finally {
      await found.parent.close();
    }
  }
}

function assertRegularFile(stats: Stats | null, path: RootPath, missing: 'file' | 'source file'): void {
  const root = path.root.name;
  if (stats === null) throw errors.notFound(missing, root, displayPath(path));
  if (stats.isDirectory()) throw errors.isADirectory(root, displayPath(path));
  if (!stats.isFile()) throw errors.notAFile(root, displayPath(path));
}
