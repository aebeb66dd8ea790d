import type { FileVersion } from './ports/file-system.port.js';

/** Folders whose listing is kept. */
export const MAX_CACHED_LISTINGS = 32;
/** Names kept across all of them (a 20,000-entry folder is about 1 MB of names). */
export const MAX_CACHED_NAMES = 200_000;

/**
 * A folder's listing, read once per version of the folder (issue 33: a completion over 20,000
 * entries cost 150-320 ms a call, each listing and sorting the folder again).
 *
 * Cache: keyed by the adapter's directoryVersion (dev+ino+mtime+ctime on disk), at most
 * MAX_CACHED_LISTINGS folders and MAX_CACHED_NAMES names, least recently used dropped first. A
 * folder the adapter gives no version for (changed a moment ago), or whose listing the caller will
 * not have kept, is listed afresh each time.
 * Security: the key is the folder's identity, never its path, and a caller gets a listing only for
 * the version the confined walk just reached, so it sees what readDirectory would show it now.
 */
export class ListingCache<T extends readonly unknown[]> {
  private readonly listings = new Map<FileVersion, T>();
  private names = 0;

  /** The listing of `version`, from `read` once per version (every time when `version` is undefined, or `keep` refuses it). */
  async get(version: FileVersion | undefined, read: () => Promise<T>, keep: (listing: T) => boolean = () => true): Promise<T> {
    if (version === undefined) return read();
    const kept = this.listings.get(version);
    if (kept !== undefined) {
      this.listings.delete(version);
      this.listings.set(version, kept);
      return kept;
    }
    const listing = await read();
    if (listing.length > MAX_CACHED_NAMES || !keep(listing)) return listing;
    this.listings.set(version, listing);
    this.names += listing.length;
    while (this.listings.size > MAX_CACHED_LISTINGS || this.names > MAX_CACHED_NAMES) {
      const [oldest, dropped] = this.listings.entries().next().value!;
      this.listings.delete(oldest);
      this.names -= dropped.length;
    }
    return listing;
  }
}
