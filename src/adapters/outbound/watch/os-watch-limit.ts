import { readFileSync } from 'node:fs';

const INOTIFY_MAX_USER_WATCHES = '/proc/sys/fs/inotify/max_user_watches';

/** The operating system's limit on watches of this user (Linux inotify), read once at start-up; undefined where there is none to read. */
export function readOsWatchLimit(file = INOTIFY_MAX_USER_WATCHES): number | undefined {
  try {
    const limit = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}
