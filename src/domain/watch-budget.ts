import { DomainError, inRoot } from './errors.js';
import type { WatchedKind } from './ports/file-watcher.port.js';

/** How many folder watches the server may hold, all principals together and each one alone. */
export interface WatchLimits {
  /** limits.watches: a share of the operating system's limit, read at start-up. */
  readonly server: number;
  /** limits.watches_per_principal. */
  readonly perPrincipal: number;
}

/** limits.watches when unset: half the OS limit, at most this many (room for the user's other processes). */
export const DEFAULT_WATCH_CAP = 65536;
/** limits.watches when unset and the OS states no limit to read. */
export const DEFAULT_WATCHES_WITHOUT_OS_LIMIT = 4096;

/** The budgets from the configured ones (0: derived) and the OS limit read at start-up (undefined: none to read). */
export function watchLimitsOf(configured: WatchLimits | undefined, osLimit: number | undefined): WatchLimits {
  const derived = osLimit === undefined ? DEFAULT_WATCHES_WITHOUT_OS_LIMIT : Math.min(Math.floor(osLimit / 2), DEFAULT_WATCH_CAP);
  const server = configured?.server || Math.max(derived, 1);
  return { server, perPrincipal: configured?.perPrincipal || Math.max(Math.floor(server / 2), 1) };
}

export const SERVER_WATCH_LIMIT = 'limits.watches';
export const PRINCIPAL_WATCH_LIMIT = 'limits.watches_per_principal';

/** Past a budget, or the operating system's own limit: the subscription is refused with the reason. */
export function watchLimitReached(root: string, path: string, reason: string): DomainError {
  return new DomainError('WATCH_LIMIT_REACHED', `cannot watch ${path}${inRoot(root)}: ${reason}; unsubscribe from some resources first`, {
    root,
    attemptedPath: path,
  });
}

/**
 * The folders a watch of an entry occupies, one operating-system watch each (see FileWatcher):
 * every folder from the root down to the entry's parent, and the entry itself when it is a folder.
 * Keys are `prefix` (the root's key) + the folder's in-root path.
 */
export function watchedFolders(prefix: string, segments: readonly string[], kind: WatchedKind): string[] {
  const depth = kind === 'directory' ? segments.length : segments.length - 1;
  const folders: string[] = [];
  for (let k = 0; k <= depth; k += 1) folders.push(`${prefix}\0${segments.slice(0, k).join('/')}`);
  return folders;
}

/** Folders counted once each however many claims hold them. */
class FolderCounts {
  private readonly counts = new Map<string, number>();

  get size(): number {
    return this.counts.size;
  }

  missing(folders: readonly string[]): number {
    return folders.filter((folder) => !this.counts.has(folder)).length;
  }

  add(folders: readonly string[]): void {
    for (const folder of folders) this.counts.set(folder, (this.counts.get(folder) ?? 0) + 1);
  }

  remove(folders: readonly string[]): void {
    for (const folder of folders) {
      const count = this.counts.get(folder) ?? 0;
      if (count <= 1) this.counts.delete(folder);
      else this.counts.set(folder, count - 1);
    }
  }
}

/**
 * Operating-system watches as a budget (issue 33): each subscribed entry claims the folders its
 * watch occupies. A folder two subscriptions need is one watch, so it is counted once for the
 * server and once for each principal holding it, and freed with its last claim.
 * Security: the OS limit (inotify's max_user_watches) is shared with every process of the same
 * user; one principal filling it would leave every other principal, and those processes, without
 * watches. The per-principal budget keeps room for the others; the server budget keeps room for
 * the rest of the user's processes.
 */
export class WatchBudget {
  private readonly server = new FolderCounts();
  private readonly principals = new Map<string, FolderCounts>();

  constructor(readonly limits: WatchLimits) {}

  /** Watches held now, all principals together. */
  get inUse(): number {
    return this.server.size;
  }

  inUseBy(principal: string): number {
    return this.principals.get(principal)?.size ?? 0;
  }

  /** Claims `folders` for `principal`, or refuses (naming the root, the path and the limit) when a budget would be passed. */
  claim(principal: string, folders: readonly string[], where: { readonly root: string; readonly path: string }): void {
    const own = this.principals.get(principal) ?? new FolderCounts();
    const ownNeed = own.missing(folders);
    if (own.size + ownNeed > this.limits.perPrincipal) {
      throw watchLimitReached(
        where.root,
        where.path,
        `it needs ${ownNeed} more folder watches and this principal holds ${own.size} of the ${this.limits.perPrincipal} ${PRINCIPAL_WATCH_LIMIT} allows`,
      );
    }
    const serverNeed = this.server.missing(folders);
    if (this.server.size + serverNeed > this.limits.server) {
      throw watchLimitReached(
        where.root,
        where.path,
        `it needs ${serverNeed} more folder watches and the server holds ${this.server.size} of the ${this.limits.server} ${SERVER_WATCH_LIMIT} allows`,
      );
    }
    own.add(folders);
    this.principals.set(principal, own);
    this.server.add(folders);
  }

  release(principal: string, folders: readonly string[]): void {
    const own = this.principals.get(principal);
    if (!own) return;
    own.remove(folders);
    if (own.size === 0) this.principals.delete(principal);
    this.server.remove(folders);
  }
}
