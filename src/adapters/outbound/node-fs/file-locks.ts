import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { lstat, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { errors } from '../../../domain/errors.js';
import type { FileLock } from '../../../domain/ports/file-system.port.js';
import { hostPathOf } from '../../../domain/path-policy.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';
import type { InFlightWrites } from './in-flight.js';
import { errnoOf, translate } from './node-errors.js';
import type { Dir } from './walker.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
/** How long an edit waits for a file another edit holds before answering CONFLICT. */
const WAIT_MS = 15_000;
/** A lock file older than this is taken to be left by a crashed writer whatever its owner looks like. */
const STALE_MS = 60_000;
const HOST = hostname();

/** Name of the on-disk lock of `name`; the `.mcp-fs-` prefix keeps it out of every listing. */
export function lockFileName(name: string): string {
  return `.mcp-fs-${createHash('sha256').update(name).digest('hex').slice(0, 16)}.lock`;
}

/**
 * Per-file write locks. In this process: a promise chain per key, the key being the parent
 * directory's device and inode plus the entry name, so two spellings of one file (through a
 * linked directory, `./`, a final link) share one lock. Across processes: Node has no flock in
 * core, so a lock file created with O_EXCL inside the very directory we opened and verified;
 * it names its owner (host and pid), and one left by a dead process, or older than STALE_MS, is
 * removed. Honest limits: stale-lock removal has a small window between the check and the unlink,
 * and a hard link under another name is another key; the version check before the rename
 * (WriteOptions.expected) still turns those cases into CONFLICT.
 */
export class FileLocks {
  /** Locks `name` in `dir`; `dir` must stay open until the lock is released. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Lock files are recorded like temp files, so a restart after a crash removes them. */
  constructor(private readonly inFlight: InFlightWrites) {}

  async acquire(dir: Dir, dirStats: Stats, name: string, subject: RootPath): Promise<FileLock> {
    const key = `${dirStats.dev}:${dirStats.ino}/${name}`;
    const previous = this.tails.get(key) ?? Promise.resolve();
    let releaseLocal!: () => void;
    const tail = new Promise<void>((resolve) => (releaseLocal = resolve));
    this.tails.set(key, previous.then(() => tail));
    const chained = this.tails.get(key);
    const dropLocal = () => {
      releaseLocal();
      if (this.tails.get(key) === chained) this.tails.delete(key);
    };
    await previous;
    let onDisk: string;
    const forget = await this.inFlight.begin(hostPathOf(dir.path), lockFileName(name));
    try {
      onDisk = await lockOnDisk(dir, name, subject);
    } catch (error) {
      await forget();
      dropLocal();
      throw error;
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await unlinkQuietly(onDisk);
          await forget();
        } finally {
          dropLocal();
        }
      },
    };
  }
}

async function lockOnDisk(dir: Dir, name: string, subject: RootPath): Promise<string> {
  const entry = dir.entry(lockFileName(name));
  const owner = `${HOST}\n${process.pid}\n${randomBytes(8).toString('hex')}\n`;
  const deadline = Date.now() + WAIT_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    // Synchronous: one short create in a directory the kernel has cached beats three thread-pool hops.
    try {
      const fd = openSync(entry, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, owner);
      } finally {
        closeSync(fd);
      }
      return entry;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw translate(error, subject);
    }
    await removeIfStale(entry);
    if (Date.now() > deadline) {
      throw errors.conflict(subject.root.name, displayPath(subject), 'file is being edited by another writer');
    }
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
  }
}

async function removeIfStale(entry: string): Promise<void> {
  let stats: Stats;
  let text: string;
  try {
    stats = await lstat(entry);
    text = await readFile(entry, { encoding: 'utf8', flag: constants.O_RDONLY | O_NOFOLLOW });
  } catch {
    return;
  }
  const [host, pid] = text.split('\n');
  const ownerGone = host === HOST && /^\d+$/.test(pid ?? '') && Number(pid) !== process.pid && !alive(Number(pid));
  if (!ownerGone && Date.now() - stats.mtimeMs < STALE_MS) return;
  try {
    const again = await lstat(entry);
    if (again.ino === stats.ino && again.dev === stats.dev) await unlink(entry);
  } catch {
    // Someone else removed it first.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

async function unlinkQuietly(entry: string): Promise<void> {
  try {
    unlinkSync(entry);
  } catch {
    // Already gone (a stale-lock sweep by another process after a very long hold).
  }
}
