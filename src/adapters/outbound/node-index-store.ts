import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexStore, RootIdentity } from '../../domain/ports/index-store.port.js';
import type { Root } from '../../domain/roots.js';
import { checkPrivate } from './node-fs/in-flight.js';

/**
 * Each root's search index as one file in a private directory (index/ in the state directory):
 * written to a temp file (0600) and renamed over the old one, so a reader sees a whole file.
 * Security: the directory holds what files of every root contain (their trigrams, their paths);
 * like the journal's it must be ours, 0700 and no link, checked before each use (it is made on
 * the first save, not at start-up). A file is opened O_NOFOLLOW and must be a regular file of ours.
 */
export class NodeIndexStore implements IndexStore {
  constructor(private readonly dir: string) {}

  async identify(root: Root): Promise<RootIdentity | undefined> {
    try {
      const stats = await stat(await realpath(root.hostPath));
      return { name: root.name, device: stats.dev, inode: stats.ino, born: stats.birthtimeMs };
    } catch {
      return undefined;
    }
  }

  async load(rootName: string): Promise<Uint8Array | undefined> {
    checkPrivate(this.dir, 'search index directory');
    let file;
    try {
      file = await open(this.fileOf(rootName), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const stats = await file.stat();
      // Security: only a regular file this user wrote is read (another user could not write here, but a
      // FIFO would block the read, and a file of another owner was not ours).
      if (!stats.isFile() || stats.uid !== process.getuid?.()) throw new Error(`${this.fileOf(rootName)} is not a regular file of this user`);
      return await file.readFile();
    } finally {
      await file.close();
    }
  }

  async save(rootName: string, bytes: Uint8Array): Promise<void> {
    checkPrivate(this.dir, 'search index directory');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    checkPrivate(this.dir, 'search index directory');
    const target = this.fileOf(rootName);
    const temp = `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await file.writeFile(bytes);
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async remove(rootName: string): Promise<void> {
    await unlink(this.fileOf(rootName)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** A root's file: its name hashed, so any name (slashes, dots) is one plain file name here. */
  private fileOf(rootName: string): string {
    return join(this.dir, `${createHash('sha256').update(rootName).digest('hex').slice(0, 32)}.idx`);
  }
}
