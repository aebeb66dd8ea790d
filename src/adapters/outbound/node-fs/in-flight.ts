import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';

/** The only names a record may point at: our own temp and lock files. */
export const TEMP_NAME = /^\.mcp-fs-[0-9a-f]{16}\.(tmp|lock)$/;

/**
 * Records of temp files being written, one small file each in a private state directory
 * (`<os tmpdir>/mcp-fs-inflight-<uid>`, 0700), so that a start-up after a crash (SIGKILL, power
 * loss) removes the temp files the dead process left in the roots. A record names the owning
 * pid; only records of processes that are gone are acted on, so two servers on one root do not
 * remove each other's in-flight writes.
 */
export class InFlightWrites {
  constructor(private readonly stateDir = defaultStateDir()) {
    checkPrivate(stateDir, 'write state directory');
  }

  /**
   * Remembers a temp file about to be created; returns what forgets it again. Synchronous
   * inside: a small file in a local state directory costs less than three thread-pool hops.
   */
  async begin(hostDir: string, tempName: string): Promise<() => Promise<void>> {
    const record = join(this.stateDir, `${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(record, `${hostDir}/${tempName}`, { mode: 0o600 });
    } catch {
      mkdirSync(this.stateDir, { recursive: true, mode: 0o700 });
      writeFileSync(record, `${hostDir}/${tempName}`, { mode: 0o600 });
    }
    return async () => {
      try {
        unlinkSync(record);
      } catch {
        // Already gone: a start-up sweep by another process after a very long write.
      }
    };
  }

  /** Start-up: removes temp files of writes whose process is gone, and their records. Returns how many. */
  recover(): number {
    let names: string[];
    try {
      names = readdirSync(this.stateDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
      const record = join(this.stateDir, name);
      try {
        const temp = readFileSync(record, 'utf8');
        // Security: act only on one of our own temp names, and only on a regular file (never
        // through a link), so a forged record cannot make the server delete anything else.
        if (TEMP_NAME.test(basename(temp)) && lstatSync(temp).isFile() && ownedBy(temp, pid)) {
          unlinkSync(temp);
          removed += 1;
        }
      } catch {
        // The temp was renamed into place or removed already: nothing to clean.
      }
      try {
        unlinkSync(record);
      } catch {
        // Another starting process took it.
      }
    }
    return removed;
  }
}

/**
 * A lock file names its owner: remove only the dead process's own (another may have taken the
 * name since). An empty one was created by a process killed before it wrote its name.
 */
function ownedBy(entry: string, pid: number): boolean {
  if (!entry.endsWith('.lock')) return true;
  const text = readFileSync(entry, 'utf8');
  return text === '' || text.split('\n')[1] === String(pid);
}

/**
 * Security: the state directory sits in the shared temp dir, where another local user could
 * have made it first. Records name host paths and steer what start-up removes, so the directory
 * must be a real directory (not a link) of this user that nobody else may write to.
 */
export function checkPrivate(dir: string, what: string): void {
  let stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return; // Made on first use, with mode 0700.
  }
  const uid = process.getuid?.();
  const problem = stats.isSymbolicLink()
    ? 'is a symbolic link'
    : !stats.isDirectory()
      ? 'is not a directory'
      : uid !== undefined && stats.uid !== uid
        ? `belongs to uid ${stats.uid}, not ${uid}`
        : (stats.mode & 0o022) !== 0
          ? `is writable by others (mode ${(stats.mode & 0o777).toString(8)})`
          : undefined;
  if (problem) throw new Error(`the ${what} ${dir} ${problem}; remove it, or run as the user who owns it`);
}

function defaultStateDir(): string {
  const dir = join(tmpdir(), `mcp-fs-inflight-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

