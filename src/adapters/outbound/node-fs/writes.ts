import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsync, openSync, renameSync, writeSync, type Stats } from 'node:fs';
import { link, open, unlink, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { errors } from '../../../domain/errors.js';
import { fitsHostPath, hostPathOf, hostPathTooLong, resolveLinkTarget } from '../../../domain/path-policy.js';
import type { CommitCondition, FileVersion, WriteOptions, WriteResult } from '../../../domain/ports/file-system.port.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';
import type { InFlightWrites } from './in-flight.js';
import { errnoOf, outsideRoot, translate } from './node-errors.js';
import { syncDirectory, type Dir, type Located, type Walk, type Walker } from './walker.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;
// Security: O_EXCL never follows a link, not even a dangling one, and O_NOFOLLOW says so twice.
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
const APPEND_FLAGS = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK;
const TEMP_MODE = 0o600;
const DEFAULT_FILE_MODE = 0o644;
const COPY_CHUNK = 128 * 1024;
/**
 * Fast path: content up to this size is written into its temp file with synchronous syscalls (a
 * page-cache copy costs less than the thread-pool hops of open, write, chmod and close). Every fsync
 * stays on the pool, so a slow disk never holds the event loop.
 */
const SYNC_WRITE_MAX = 1024 * 1024;
const fsyncOnPool = promisify(fsync);

type Fill = (handle: FileHandle) => Promise<number>;
/** What a temp file is filled with: bytes, or a function that streams into its handle (copy). */
type Content = Uint8Array | Fill;

/** A temp file being written: its content, its mode, its data on disk, then closed. */
interface TempFile {
  fill(): Promise<number>;
  chmod(mode: number): void | Promise<void>;
  sync(): Promise<void>;
  close(): void | Promise<void>;
}

/** The identity of one version of a file: a rename-replace changes the inode, an in-place write the ctime. */
export function versionOf(stats: Stats): FileVersion {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Writes that land only in directories the walker opened and verified, never at a re-resolved path. */
export class Writer {
  constructor(
    private readonly walker: Walker,
    private readonly inFlight: InFlightWrites,
  ) {}

  async write(path: RootPath, data: Uint8Array, options: WriteOptions, walk: Walk): Promise<WriteResult> {
    const permissions = options.newFilePermissions ?? DEFAULT_FILE_MODE;
    if (options.mode === 'append') return this.append(path, data, permissions, options, walk);
    const followFinal = options.mode === 'replace';
    const target = await this.walker.locate(path, walk, { followFinal, createParents: options.createParents });
    try {
      if (options.mode === 'create_exclusive') {
        await this.createExclusive(target, data, permissions, walk, options.beforeCommit);
        return { created: true, size: data.byteLength };
      }
      assertWritableFile(target, walk);
      const mode = options.permissions ?? (target.stats ? target.stats.mode & 0o7777 : permissions);
      await this.replace(target, data, mode, walk, options.expected, options.beforeCommit);
      return { created: target.stats === null, size: data.byteLength };
    } finally {
      await target.parent.close();
    }
  }

  /** Copies an open source file to `to`; a link there is replaced, not written through. */
  async copy(source: FileHandle, sourceStats: Stats, to: RootPath, walk: Walk): Promise<number> {
    const target = await this.walker.locate(to, walk, { followFinal: false });
    try {
      assertWritableFile(target, walk, true);
      return await this.replace(target, (handle) => copyAll(source, handle), sourceStats.mode & 0o7777, walk);
    } finally {
      await target.parent.close();
    }
  }

  private async createExclusive(target: Located, content: Content, permissions: number, walk: Walk, beforeCommit?: WriteOptions['beforeCommit']): Promise<void> {
    if (!fitsHostPath(target.path)) throw hostPathTooLong(walk.subject);
    if (target.stats?.isSymbolicLink()) {
      const text = await this.walker.readLinkIn(target.parent, target.name, walk);
      if (text !== null && resolveLinkTarget(target.parent.path, text) === null) throw outsideRoot(walk.subject, text);
    }
    if (target.stats !== null) throw errors.alreadyExists(walk.subject.root.name, displayPath(walk.subject));
    const { name: temp, done } = await this.writeTemp(target.parent, content, permissions, walk);
    try {
      await commitHook(beforeCommit);
      // link(2) fails with EEXIST if anything (a link included) appeared meanwhile: atomic create-only.
      await link(target.parent.entry(temp), target.parent.entry(target.name)).finally(() => unlinkQuietly(target.parent.entry(temp)));
      await syncDirectory(target.parent, walk);
    } catch (error) {
      throw hookRejection(error) ?? translate(error, walk.subject);
    } finally {
      // Only now: until the directory is synced, a power loss could bring the temp name back, and its record must find it.
      await done();
    }
  }

  private async append(path: RootPath, data: Uint8Array, permissions: number, options: WriteOptions, walk: Walk): Promise<WriteResult> {
    const { createParents, beforeCommit } = options;
    let committing = beforeCommit;
    for (;;) {
      const target = await this.walker.locate(path, walk, { followFinal: true, createParents });
      try {
        assertWritableFile(target, walk);
        const entry = target.parent.entry(target.name);
        const created = target.stats === null;
        let handle: FileHandle;
        // Once only, however often the entry is resolved again; before anything (a new empty file) is visible.
        await committing?.();
        committing = undefined;
        try {
          handle = await open(entry, created ? CREATE_FLAGS | O_APPEND : APPEND_FLAGS, TEMP_MODE);
        } catch (error) {
          // The entry appeared, vanished or became a link since the lstat: resolve it again.
          if (!['EEXIST', 'ENOENT', 'ELOOP'].includes(errnoOf(error) ?? '')) throw translate(error, walk.subject);
          walk.hop();
          continue;
        }
        try {
          if (!(await handle.stat()).isFile()) throw errors.notAFile(walk.subject.root.name, displayPath(walk.subject));
          await this.walker.verify(handle, path.root, walk);
          if (created) await handle.chmod(permissions);
          await writeAll(handle, data);
          // Durability: an acknowledged append is on disk, as a replaced file is (writeTemp syncs it).
          await handle.sync();
          if (created) await syncDirectory(target.parent, walk);
          return { created, size: (await handle.stat()).size };
        } catch (error) {
          if (created) await unlinkQuietly(entry);
          throw translate(error, walk.subject);
        } finally {
          await handle.close();
        }
      } finally {
        await target.parent.close();
      }
    }
  }

  /**
   * NFR-014: fill a temp file in the target's own directory, then rename it over the target.
   * With `expected`, the target must still be that version right before the rename (CONFLICT
   * otherwise); callers hold the file's lock (FileSystemPort.lockFile) across read and write.
   */
  private async replace(target: Located, content: Content, permissions: number, walk: Walk, given?: FileVersion, beforeCommit?: WriteOptions['beforeCommit']): Promise<number> {
    const { name: temp, size, done } = await this.writeTemp(target.parent, content, permissions, walk);
    try {
      // The hook runs whatever the caller gave: it is where the journal's record becomes durable.
      const condition = await commitHook(beforeCommit);
      const expected = given ?? condition?.expected;
      if (expected !== undefined) {
        const now = await this.walker.lstatIn(target.parent, target.name, walk);
        if (now === null || versionOf(now) !== expected) {
          throw errors.conflict(walk.subject.root.name, displayPath(walk.subject));
        }
      }
      // Same directory fd, same names: a metadata call on dentries the kernel holds, done synchronously.
      renameSync(target.parent.entry(temp), target.parent.entry(target.name));
      await syncDirectory(target.parent, walk);
    } catch (error) {
      await unlinkQuietly(target.parent.entry(temp));
      throw hookRejection(error) ?? translate(error, walk.subject);
    } finally {
      // Only now: until the directory is synced, a power loss could bring the temp name back, and its record must find it.
      await done();
    }
    return size;
  }

  /**
   * Creates, fills, chmods (explicitly, so the umask has no say) and fsyncs a temp file; returns
   * its name and what to call once it is renamed or removed. The temp is recorded as in flight
   * first, so a restart after a crash removes it (InFlightWrites.recover).
   */
  async writeTemp(dir: Dir, content: Content, permissions: number, walk: Walk): Promise<{ name: string; size: number; done: () => Promise<void> }> {
    const name = tempName();
    const done = await this.inFlight.begin(hostPathOf(dir.path), name);
    let file: TempFile;
    try {
      file = await createTemp(dir.entry(name), content);
    } catch (error) {
      await done();
      throw translate(error, walk.subject);
    }
    let open = true;
    try {
      const size = await file.fill();
      await file.chmod(permissions);
      await file.sync();
      open = false;
      await file.close();
      return { name, size, done };
    } catch (error) {
      if (open) await file.close();
      await unlinkQuietly(dir.entry(name));
      await done();
      throw translate(error, walk.subject);
    }
  }
}

/** Creates the temp file (O_EXCL: never an existing entry, never through a link), synchronously for small bytes. */
async function createTemp(entry: string, content: Content): Promise<TempFile> {
  if (typeof content !== 'function' && content.byteLength <= SYNC_WRITE_MAX) {
    const fd = openSync(entry, CREATE_FLAGS, TEMP_MODE);
    return {
      fill: async () => {
        let offset = 0;
        while (offset < content.byteLength) offset += writeSync(fd, content, offset, content.byteLength - offset);
        return offset;
      },
      chmod: (mode) => fchmodSync(fd, mode),
      // Security: the fd stays open until fsync returns, so the pool never works on a reused number.
      sync: () => fsyncOnPool(fd),
      close: () => closeSync(fd),
    };
  }
  const handle = await open(entry, CREATE_FLAGS, TEMP_MODE);
  return {
    fill: () => (typeof content === 'function' ? content(handle) : writeAll(handle, content)),
    chmod: (mode) => handle.chmod(mode),
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}

/** The caller's beforeCommit rejected: its own error goes back as it was, not translated into an I/O error. */
class HookRejection extends Error {
  constructor(readonly original: unknown) {
    super('beforeCommit rejected');
  }
}

async function commitHook(hook: WriteOptions['beforeCommit']): Promise<CommitCondition | void> {
  try {
    return await hook?.();
  } catch (error) {
    throw new HookRejection(error);
  }
}

function hookRejection(error: unknown): unknown {
  return error instanceof HookRejection ? error.original : undefined;
}

function tempName(): string {
  return `.mcp-fs-${randomBytes(8).toString('hex')}.tmp`;
}

export function assertWritableFile(target: Located, walk: Walk, linkReplaced = false): void {
  if (!fitsHostPath(target.path)) throw hostPathTooLong(walk.subject);
  const root = walk.subject.root.name;
  const stats = target.stats;
  if (stats?.isDirectory()) throw errors.isADirectory(root, displayPath(walk.subject));
  if (stats && !stats.isFile() && !(linkReplaced && stats.isSymbolicLink())) throw errors.notAFile(root, displayPath(walk.subject));
}

async function writeAll(handle: FileHandle, data: Uint8Array): Promise<number> {
  let offset = 0;
  while (offset < data.byteLength) {
    const { bytesWritten } = await handle.write(data, offset, data.byteLength - offset);
    offset += bytesWritten;
  }
  return offset;
}

export async function copyAll(source: FileHandle, target: FileHandle): Promise<number> {
  const buffer = Buffer.allocUnsafe(COPY_CHUNK);
  let position = 0;
  for (;;) {
    const { bytesRead } = await source.read(buffer, 0, buffer.byteLength, position);
    if (bytesRead === 0) return position;
    await writeAll(target, buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
}

export async function unlinkQuietly(entry: string): Promise<void> {
  try {
    await unlink(entry);
  } catch {
    // Best effort: the entry is a temp file of ours or already gone.
  }
}
