import { openSync, renameSync } from 'node:fs';
import type { CopyBatchEntry, CopyBatchOutcome } from '../../../domain/ports/file-system.port.js';
import { parentPath, type RootPath } from '../../../domain/roots.js';
import { translate } from './node-errors.js';
import { fileHandleOpener, openRegularFile } from './regular-files.js';
import { DIRECTORY_FLAGS, Dir, syncDirectory, Walk, type Located, type Walker } from './walker.js';
import { assertWritableFile, copyAll, unlinkQuietly, type Writer } from './writes.js';

/** Files written aside at once: their fsyncs overlap on the thread pool (and in the file system's journal commits). */
const PREPARE_CONCURRENCY = 8;

/** A file of the batch, written and synced aside in its target's folder (held open until the batch ends). */
interface Prepared {
  readonly target: Located;
  readonly temp: string;
  readonly size: number;
  readonly done: () => Promise<void>;
  placed: boolean;
}

/**
 * FileSystemPort.copyBatch on disk. Durability: each temp file is fsynced before anything is
 * placed, and each folder that received an entry (a rename, a new folder) is fsynced once after
 * all of them, so a tree copy costs one sync per file and one per folder instead of two per file.
 * Security: every entry is placed in the folder fd the walker opened and verified, as copyFile does.
 */
export async function copyBatch(walker: Walker, writer: Writer, entries: readonly CopyBatchEntry[], beforeCommit?: () => Promise<void>): Promise<CopyBatchOutcome> {
  const files = new Map<CopyBatchEntry, Prepared>();
  const folders = new Map<string, Dir>();
  try {
    await prepareAll(walker, writer, entries, files);
    await beforeCommit?.();
    const placed: { size: number; created: boolean }[] = [];
    let failure: unknown;
    for (const entry of entries) {
      try {
        placed.push(await place(walker, entry, files, folders));
      } catch (error) {
        failure = error;
        break;
      }
    }
    // The folders are synced even after a failure: what was placed stays, and must then be on disk.
    for (const [key, dir] of folders) {
      try {
        await syncDirectory(dir, new Walk(dir.path));
      } catch (error) {
        failure ??= error;
      }
      folders.delete(key);
      await dir.close();
    }
    return failure === undefined ? { placed } : { placed, failure };
  } finally {
    for (const file of files.values()) {
      if (!file.placed) await unlinkQuietly(file.target.parent.entry(file.temp));
      // Only now: until its folder is synced, a power loss could bring the temp name back, and its record must find it.
      await file.done();
      await file.target.parent.close();
    }
    for (const dir of folders.values()) await dir.close();
  }
}

/** Writes and syncs every file of the batch aside, a few at once; the first failure stops the rest and is thrown. */
async function prepareAll(walker: Walker, writer: Writer, entries: readonly CopyBatchEntry[], files: Map<CopyBatchEntry, Prepared>): Promise<void> {
  const pending = entries.filter((entry) => entry.kind === 'file');
  let failed = false;
  const worker = async (): Promise<void> => {
    for (let entry = pending.shift(); entry !== undefined && !failed; entry = pending.shift()) {
      try {
        await prepare(walker, writer, entry, files);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(PREPARE_CONCURRENCY, pending.length) }, worker));
  const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
  if (rejected !== undefined) throw rejected.reason;
}

async function prepare(walker: Walker, writer: Writer, entry: CopyBatchEntry & { kind: 'file' }, files: Map<CopyBatchEntry, Prepared>): Promise<void> {
  const source = await openRegularFile(walker, entry.from, 'source file', fileHandleOpener);
  try {
    const walk = new Walk(entry.to);
    const target = await walker.locate(entry.to, walk, { followFinal: false });
    try {
      assertWritableFile(target, walk, true);
      const { name, size, done } = await writer.writeTemp(target.parent, (handle) => copyAll(source.handle, handle), source.stats.mode & 0o7777, walk);
      files.set(entry, { target, temp: name, size, done, placed: false });
    } catch (error) {
      await target.parent.close();
      throw error;
    }
  } finally {
    await source.handle.close();
  }
}

/** Puts one entry in place, unsynced; remembers the folder it changed, to be synced once at the end. */
async function place(walker: Walker, entry: CopyBatchEntry, files: Map<CopyBatchEntry, Prepared>, folders: Map<string, Dir>): Promise<{ size: number; created: boolean }> {
  const walk = new Walk(entry.to);
  if (entry.kind === 'directory') {
    const { dir, created } = await walker.directory(entry.to, walk, true, entry.permissions, false);
    try {
      const key = keyOf(parentPath(dir.path));
      // The parent of the folder made (not of the path asked for: a link on the way may lead elsewhere), opened from it.
      if (created && !folders.has(key)) folders.set(key, new Dir(openSync(dir.entry('..'), DIRECTORY_FLAGS), parentPath(dir.path), walker.procFd));
    } catch (error) {
      throw translate(error, entry.to);
    } finally {
      await dir.close();
    }
    return { size: 0, created };
  }
  const file = files.get(entry) as Prepared;
  const { parent, name } = file.target;
  const key = keyOf(parent.path);
  try {
    // The same folder object opened again through the fd we hold (each prepared file's handle is closed on its own).
    if (!folders.has(key)) folders.set(key, new Dir(openSync(parent.entry('.'), DIRECTORY_FLAGS), parent.path, walker.procFd));
    // Same directory fd, same names, as Writer.replace.
    renameSync(parent.entry(file.temp), parent.entry(name));
  } catch (error) {
    throw translate(error, entry.to);
  }
  file.placed = true;
  return { size: file.size, created: file.target.stats === null };
}

function keyOf(path: RootPath): string {
  return `${path.root.name}\0${path.segments.join('/')}`;
}
