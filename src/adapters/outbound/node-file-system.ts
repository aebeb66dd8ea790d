import { closeSync, existsSync, fchmodSync, fstatSync, openSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { injectable } from 'inversify';
import { DomainError, errors } from '../../domain/errors.js';
import type {
  CopyBatchEntry,
  CopyBatchOutcome,
  EntryStat,
  FileLock,
  FileSystemPort,
  LinkInfo,
  ReadableFile,
  WriteOptions,
  FileVersion,
  WriteResult,
} from '../../domain/ports/file-system.port.js';
import type { TreeScanBatch, TreeScanOptions } from '../../domain/ports/tree-scan-types.js';
import { baseName, displayPath, type RootPath } from '../../domain/roots.js';
import type { WorkContext } from '../../domain/work-context.js';
import { describeLink, kindOf, mapLimit, toEntryStat } from './node-fs/entry-stat.js';
import { EventLoopSlice } from './node-fs/event-loop-slice.js';
import { FileLocks } from './node-fs/file-locks.js';
import { InFlightWrites } from './node-fs/in-flight.js';
import { translate } from './node-fs/node-errors.js';
import { LineIndexCache } from './node-fs/line-index.js';
import { OwnerDirectory } from './node-fs/owners.js';
import { isOwnWorkFile } from '../../domain/work-files.js';
import { NodeReadableFile } from './node-fs/readable-file.js';
import { sharedParallelLstat, type LstatFields, type ParallelLstat } from './node-fs/parallel-lstat.js';
import { sharedListingPrefetch, type ListingPrefetch } from './node-fs/listing-prefetch.js';
import { scanTree } from './node-fs/tree-scan.js';
import { DIRECTORY_FLAGS, Walk, Walker, type Dir, type Located } from './node-fs/walker.js';
import { WorkingDirectory } from './node-fs/working-directory.js';
import { versionOf, Writer } from './node-fs/writes.js';
import { copyBatch } from './node-fs/copy-batch.js';
import { Removals } from './node-fs/removals.js';
import { descriptorOpener, fileHandleOpener, openRegularFile } from './node-fs/regular-files.js';

const LISTING_CONCURRENCY = 64;
/** A directory changed more recently than this has no version (see directoryVersion); ample for a jiffy-grained clock. */
const DIRECTORY_SETTLE_MS = 100;
/**
 * The longest run of synchronous file system work (a walk, a search) before a stat, listing or open
 * lets the event loop serve other requests: a read next to a big grep waits at most about this long.
 */
const EVENT_LOOP_SLICE_MS = 3;

export interface NodeFileSystemOptions {
  /** Use /proc/self/fd for race-free walks; defaults to whether it exists (Linux). */
  readonly procFd?: boolean;
  /** Where in-flight temp files are recorded (default: a private directory under the OS temp dir). */
  readonly stateDir?: string;
  /** The helper thread that lists the directories a tree scan opened ahead (procFd only); null for none. Default: the process's shared one. */
  readonly listings?: ListingPrefetch | null;
  /** The helper thread that shares the lstats of a large listing (procFd only); null for none. Default: the process's shared one. */
  readonly lstats?: ParallelLstat | null;
  /** A scan's file read slower than this switches it to reading ahead on the thread pool for a while (node-fs/cold-reads.ts, COLD_READ_MS); tests pass 0. */
  readonly coldReadMs?: number;
}

/**
 * The production FileSystemPort. Confinement mechanics live in node-fs/walker.ts: every
 * operation acts on directory fds it opened and verified itself, never on a re-resolved path.
 */
@injectable()
export class NodeFileSystem implements FileSystemPort {
  private readonly walker: Walker;
  private readonly writer: Writer;
  private readonly removals: Removals;
  private readonly owners = new OwnerDirectory();
  private readonly lineIndex = new LineIndexCache();
  private readonly locks: FileLocks;
  private readonly slice = new EventLoopSlice(EVENT_LOOP_SLICE_MS);
  private readonly listings?: ListingPrefetch;
  private readonly coldReadMs?: number;
  private readonly lstats?: ParallelLstat;

  constructor(options: NodeFileSystemOptions = {}) {
    this.walker = new Walker(options.procFd ?? existsSync('/proc/self/fd'));
    // The scan uses it only with /proc/self/fd (scanTree decides); null asks for none.
    this.listings = options.listings === null ? undefined : (options.listings ?? sharedListingPrefetch());
    this.coldReadMs = options.coldReadMs;
    this.lstats = options.lstats === null ? undefined : (options.lstats ?? sharedParallelLstat());
    const inFlight = new InFlightWrites(options.stateDir);
    // Temp files of writes a crashed process left behind go before this process serves anything.
    inFlight.recover();
    this.writer = new Writer(this.walker, inFlight);
    this.removals = new Removals(this.walker);
    this.locks = new FileLocks(inFlight);
  }

  async stat(path: RootPath, options: { followSymlinks?: boolean } = {}): Promise<EntryStat | null> {
    await this.slice.turn();
    const walk = new Walk(path);
    let found: Located;
    try {
      found = await this.walker.locate(path, walk, { followFinal: options.followSymlinks === true });
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'NOT_A_DIRECTORY')) return null;
      throw error;
    }
    try {
      if (found.stats === null) return null;
      return await this.entryStat(found.parent, found.name, found.stats, walk, baseName(path));
    } finally {
      await found.parent.close();
    }
  }

  async readDirectory(path: RootPath, options: { describeLinks?: boolean } = {}): Promise<EntryStat[]> {
    await this.slice.turn();
    const describeLinks = options.describeLinks ?? true;
    const walk = new Walk(path);
    const { dir } = await this.walker.directory(path, walk);
    try {
      let names: string[];
      try {
        names = await readdir(dir.self);
      } catch (error) {
        throw translate(error, path, 'directory');
      }
      // A temp file of a write in progress (or a lock) is an implementation detail, not an entry.
      names = names.filter((name) => !isOwnWorkFile(name));
      // Fast path: each entry is one synchronous lstat of a bare name in the directory we verified
      // (see WorkingDirectory), cheaper than a thread-pool hop or a /proc/self/fd/N/name lookup each;
      // a large directory shares them with a helper thread (ParallelLstat). Security: same directory
      // object, never followed; only links take the async walk that judges where they lead.
      const entries: EntryStat[] = [];
      const links: { name: string; stats: LstatFields; at: number }[] = [];
      const add = (name: string, stats: LstatFields | null): void => {
        if (stats === null) return;
        if (describeLinks && kindOf(stats) === 'symlink') links.push({ name, stats, at: entries.length });
        entries.push(toEntryStat(name, stats));
      };
      if (!this.walker.procFd) {
        for (const name of names) add(name, this.walker.lstatAtSync(`${dir.self}/`, name, walk));
      } else {
        try {
          WorkingDirectory.within(dir.fd, () => {
            const lstatHere = (name: string) => this.walker.lstatAtSync('', name, walk);
            const all = this.lstats ? this.lstats.statAll(names, lstatHere) : names.map(lstatHere);
            names.forEach((name, index) => add(name, all[index]));
          });
        } catch (error) {
          throw translate(error, path, 'directory');
        }
      }
      const described = await mapLimit(links, LISTING_CONCURRENCY, (link) => this.entryStat(dir, link.name, link.stats, walk, link.name));
      links.forEach((link, index) => (entries[link.at] = described[index]));
      return entries;
    } finally {
      await dir.close();
    }
  }

  /**
   * dev+ino+mtime+ctime (ns) of the directory the confined walk reaches. Undefined while its ctime is
   * within DIRECTORY_SETTLE_MS of now: the kernel stamps times from a coarse clock, so a second change
   * within one tick could leave mtime and ctime as they were (git's "racy" entries, handled the same way).
   */
  async directoryVersion(path: RootPath): Promise<FileVersion | undefined> {
    let dir: Dir;
    try {
      dir = (await this.walker.directory(path, new Walk(path))).dir;
    } catch (error) {
      throw translate(error, path, 'directory');
    }
    try {
      const stats = fstatSync(dir.fd, { bigint: true });
      if (Date.now() - Number(stats.ctimeMs) < DIRECTORY_SETTLE_MS) return undefined;
      return `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    } catch (error) {
      throw translate(error, path, 'directory');
    } finally {
      await dir.close();
    }
  }

  /**
   * Runs `action` with a path naming the directory at `path` itself, opened by the confined walk
   * (in-root links followed, none leading out) and held while `action` runs; for the watcher, which
   * adds its inotify watch on that very object. Throws like readDirectory.
   */
  async atDirectory<T>(path: RootPath, action: (self: string) => T): Promise<T> {
    const walk = new Walk(path);
    let opened: Dir;
    try {
      opened = (await this.walker.directory(path, walk)).dir;
    } catch (error) {
      throw translate(error, path, 'directory');
    }
    try {
      return action(opened.self);
    } finally {
      await opened.close();
    }
  }

  scanTree(path: RootPath, options: TreeScanOptions): AsyncIterable<TreeScanBatch> {
    return scanTree(this.walker, path, options, EVENT_LOOP_SLICE_MS, this.listings, this.coldReadMs);
  }

  async openFile(path: RootPath): Promise<ReadableFile> {
    await this.slice.turn();
    const { handle, stats } = await openRegularFile(this.walker, path, 'file', descriptorOpener);
    return Object.assign(new NodeReadableFile(handle.fd, toEntryStat(baseName(path), stats), path, this.lineIndex), { version: versionOf(stats) });
  }

  async lockFile(path: RootPath): Promise<FileLock> {
    let found: Located;
    try {
      found = await this.walker.locate(path, new Walk(path), { followFinal: true });
    } catch (error) {
      // A final link that leaves the root or loops is replaced, not written through, by copy and move: lock the link's own name.
      if (!(error instanceof DomainError && error.code === 'ACCESS_DENIED')) throw error;
      found = await this.walker.locate(path, new Walk(path), { followFinal: false });
    }
    let lock: FileLock;
    try {
      lock = await this.locks.acquire(found.parent, fstatSync(found.parent.fd), found.name, path);
    } catch (error) {
      await found.parent.close();
      throw error;
    }
    // The directory stays open while the lock is held: the lock file is named through it.
    return {
      release: async () => {
        try {
          await lock.release();
        } finally {
          await found.parent.close();
        }
      },
    };
  }

  writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    return this.writer.write(path, data, options, new Walk(path));
  }

  async createDirectory(path: RootPath, options: { readonly permissions?: number } = {}): Promise<{ created: boolean }> {
    const { dir, created } = await this.walker.directory(path, new Walk(path), true, options.permissions === undefined ? undefined : options.permissions & 0o7777);
    await dir.close();
    return { created };
  }

  async setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    const target = await this.walker.locate(path, new Walk(path), { followFinal: false });
    try {
      if (target.stats === null) throw errors.notFound('directory', path.root.name, displayPath(path));
      if (!target.stats.isDirectory()) throw errors.notADirectory(path.root.name, displayPath(path));
      // Security: opened O_NOFOLLOW inside the parent we hold, and set on that descriptor: a link swapped in meanwhile is refused, never followed.
      const fd = openSync(target.parent.entry(target.name), DIRECTORY_FLAGS);
      try {
        fchmodSync(fd, permissions & 0o7777);
        return fstatSync(fd).mode & 0o7777;
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      throw translate(error, path, 'directory');
    } finally {
      await target.parent.close();
    }
  }

  removeFile(path: RootPath, options: { readonly expected?: FileVersion } = {}): Promise<void> {
    return this.removals.removeFile(path, options);
  }

  removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    return this.removals.removeDirectory(path, work);
  }

  rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    return this.removals.rename(from, to);
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    const source = await openRegularFile(this.walker, from, 'source file', fileHandleOpener);
    try {
      return { size: await this.writer.copy(source.handle, source.stats, to, new Walk(to)) };
    } finally {
      await source.handle.close();
    }
  }

  copyBatch(entries: readonly CopyBatchEntry[], options: { readonly beforeCommit?: () => Promise<void> } = {}): Promise<CopyBatchOutcome> {
    return copyBatch(this.walker, this.writer, entries, options.beforeCommit);
  }

  ownerNames(uid: number, gid: number): Promise<{ owner: string; group: string }> {
    return this.owners.names(uid, gid);
  }

  private async entryStat(dir: Dir, name: string, stats: LstatFields, walk: Walk, shownName: string): Promise<EntryStat> {
    let link: LinkInfo | undefined;
    if (kindOf(stats) === 'symlink') {
      const text = await this.walker.readLinkIn(dir, name, walk);
      link = text === null ? { text: '', resolution: 'missing' } : await describeLink(this.walker, dir.path, text);
    }
    return toEntryStat(shownName, stats, link);
  }
}
