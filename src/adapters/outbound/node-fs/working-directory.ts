/**
 * Fast path: many lookups in one directory we hold open, each of a bare name relative to the
 * working directory, which is made that directory for the duration of a synchronous `action`.
 * The kernel then resolves each name in that directory object (Node's stand-in for the *at
 * syscalls) instead of resolving the magic link `/proc/self/fd/N` again for every entry.
 *
 * Security: chdir goes through `/proc/self/fd/N`, the descriptor that was opened O_NOFOLLOW and
 * checked, so names are looked up in the very directory that was checked, as with
 * `/proc/self/fd/N/name`. The working directory is changed only while `action` runs
 * synchronously and is put back before this returns (even when it throws), so no other
 * JavaScript ever runs with it; nothing in this server looks up a relative path.
 */
export class WorkingDirectory {
  private home: string | null = null;
  /** Who asked for the current one, and with which fd: an fd number alone may be reused once closed. */
  private owner: object | null = null;
  private fd = -1;

  /** Runs `action` with the directory open as `fd` as the working directory (Linux /proc only). */
  static within<T>(fd: number, action: () => T): T {
    const place = new WorkingDirectory();
    try {
      place.enter(place, fd);
      return action();
    } finally {
      place.leave();
    }
  }

  /** Makes the directory open as `fd` the working directory (nothing when `owner` already made it so with that fd). */
  enter(owner: object, fd: number): void {
    if (this.owner === owner && this.fd === fd) return;
    this.home ??= workingDirectory();
    process.chdir(`/proc/self/fd/${fd}`);
    this.owner = owner;
    this.fd = fd;
  }

  /** Goes back to where the process was before the first `enter`. */
  leave(): void {
    if (this.home === null) return;
    const home = this.home;
    this.home = null;
    this.owner = null;
    this.fd = -1;
    try {
      process.chdir(home);
    } catch {
      // Security: never stay inside a root's directory after the action; a home removed meanwhile becomes '/'.
      process.chdir('/');
    }
  }
}

/** Where to come back to; a working directory deleted meanwhile cannot be, so '/' then. */
function workingDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return '/';
  }
}
