import { readFileSync } from 'node:fs';

/**
 * Linux inotify's limits on this user's watches: the system's, and the user namespace's (a
 * container may set a lower one); the lower one binds.
 */
const INOTIFY_LIMIT_FILES = ['/proc/sys/fs/inotify/max_user_watches', '/proc/sys/user/max_inotify_watches'];

/** The operating system's limit on watches of this user, read once at start-up; undefined where there is none to read. */
export function readOsWatchLimit(files: readonly string[] = INOTIFY_LIMIT_FILES): number | undefined {
  const limits = files.map(readLimit).filter((limit): limit is number => limit !== undefined);
  return limits.length === 0 ? undefined : Math.min(...limits);
}

function readLimit(file: string): number | undefined {
  try {
    const limit = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}
