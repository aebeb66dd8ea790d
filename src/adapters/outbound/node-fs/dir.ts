import { closeSync, type Stats } from 'node:fs';
import { MAX_SYMLINK_HOPS, hostPathOf } from '../../../domain/path-policy.js';
import { errors } from '../../../domain/errors.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';
import { SymlinkLoopError } from './node-errors.js';

/** One operation's state: the client's path (the only one messages may name) and its link budget. */
export class Walk {
  private hops = 0;

  constructor(readonly subject: RootPath) {
    // Security: names are looked up relative to directory fds, where '..' would climb out of
    // the root. RootPath promises clean segments; an adapter this close to the kernel checks.
    if (subject.segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('/'))) {
      throw errors.invalidPath(subject.root.name, displayPath(subject), 'malformed path segment');
    }
  }

  /** Spends one hop: a link followed, or a retry because an entry changed under us. */
  hop(): void {
    if (++this.hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(this.subject);
  }
}

/** Anything holding an open descriptor: a raw fd of ours or a FileHandle. */
export interface HasFd {
  readonly fd: number;
}

/**
 * An open directory and its in-root path (links already substituted, so it is the physical path).
 *
 * Fast path: directory descriptors are opened, checked and closed with synchronous syscalls.
 * Each is a short metadata call on a dentry the kernel already has; a libuv thread-pool hop
 * costs more than the call itself, and a read_file walk makes several.
 */
export class Dir {
  private closed = false;

  constructor(
    readonly fd: number,
    readonly path: RootPath,
    private readonly procFd: boolean,
    /** Set when the handle is lent by the DirectoryCache: closing gives it back instead. */
    private readonly release?: () => void,
  ) {}

  get leased(): boolean {
    return this.release !== undefined;
  }

  /**
   * A path naming the directory object we hold. Security: on Linux `/proc/self/fd/N` is a
   * magic link to the opened directory itself, so `self/name` is looked up in that very
   * directory (Node's stand-in for openat), whatever happened to its host path since.
   */
  get self(): string {
    return this.procFd ? `/proc/self/fd/${this.fd}` : hostPathOf(this.path);
  }

  entry(name: string): string {
    return `${this.self}/${name}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.release) this.release();
    else closeSync(this.fd);
  }
}

/** The final component of a path, not followed, inside its open parent (`name` is '.' for the root itself). */
export interface Located {
  readonly parent: Dir;
  readonly name: string;
  readonly stats: Stats | null;
  readonly path: RootPath;
}

