import { closeSync, fstatSync, openSync, readdirSync } from 'node:fs';
import { compareCodePoints, sortByCodePoints } from '../../../domain/code-point-order.js';
import type { TreeScanOptions } from '../../../domain/ports/tree-scan-types.js';
import { hostPathInside } from '../../../domain/path-policy.js';
import type { RootPath } from '../../../domain/roots.js';
import { isOwnWorkFile } from '../../../domain/work-files.js';
import { readDirectoryFiles } from './directory-files.js';
import type { ListedEntry, ListingPrefetch } from './listing-prefetch.js';
import { errnoOf, outsideRoot, translate } from './node-errors.js';
import { childRelativePath, direntKind, kernelWorkingDirectory, LATER, newFrame, NONE, type Frame } from './scan-frame.js';
import { Dir, DIRECTORY_FLAGS, Walk, type Walker } from './walker.js';
import { WorkingDirectory } from './working-directory.js';

/** Directory fds one scan holds at most; deeper trees close their shallowest ones and reopen them through the walker. */
const MAX_OPEN_DIRECTORIES = 64;

/**
 * The directories of a Node tree scan (tree-scan.ts): its stack of frames, and every way a
 * directory is opened, entered, listed, given back and opened again. What the scan reports of
 * their entries is tree-scan.ts's job.
 *
 * Security: below the start (opened and verified by the walker), every directory is opened
 * O_DIRECTORY|O_NOFOLLOW by a bare name in its parent while the parent is the working directory,
 * entered through the parent's checked descriptor (see WorkingDirectory: the same lookup as
 * `/proc/self/fd/N/name`), so a link (or an entry swapped for one) is never entered. Each opened
 * directory's kernel path is checked to lie inside the root, and one opened again must be the one
 * listed.
 */
export class ScanDirectories {
  readonly stack: Frame[] = [];
  /** The physical path of the start: links on the way to it are already substituted. */
  readonly base: RootPath;
  /** The directory being scanned is the working directory during a slice (procFd only). */
  private readonly place = new WorkingDirectory();
  /** Child directories opened ahead and not yet entered or closed. */
  eager = 0;

  constructor(
    private readonly walker: Walker,
    start: Dir,
    private readonly walk: Walk,
    private readonly options: TreeScanOptions,
    /** Lists the children opened ahead on another thread (procFd only); see ListingPrefetch. */
    private readonly listings?: ListingPrefetch,
  ) {
    this.base = start.path;
    this.stack.push(newFrame(start, this.prefixOf(start), '', 0));
  }

  /** Lists the start directory. */
  begin(): void {
    const frame = this.stack[0];
    try {
      this.changeInto(frame);
      frame.entries = this.list(frame);
      this.readRules(frame);
    } finally {
      this.place.leave();
    }
  }

  get done(): boolean {
    return this.stack.length === 0;
  }

  get top(): Frame {
    return this.stack[this.stack.length - 1];
  }

  /** The top frame when its directory must be opened again before the scan can go on. */
  reopenNeeded(): Frame | null {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined || top.dir !== null) return null;
    return top.prepared < top.entries.length || top.children[top.next] === LATER ? top : null;
  }

  async reopen(frame: Frame): Promise<void> {
    const path = this.pathOf(frame.relativePath);
    let dir: Dir;
    try {
      // The walker opens it afresh from the root (or a directory it verified), checking every hop.
      ({ dir } = await this.walker.directory(path, new Walk(path)));
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'NOT_FOUND' && code !== 'NOT_A_DIRECTORY') throw error;
      // Gone since it was listed: what is left of it is skipped, like any vanished directory.
      return this.skipRest(frame);
    }
    // Security: the walker follows in-root links on its way; a directory swapped meanwhile (for a link to
    // another directory, or another directory renamed into place) is not this one, and its names are
    // not looked up as if they were the ones listed: what is left of it is skipped, as if it vanished.
    const now = fstatSync(dir.fd);
    if (frame.identity !== undefined && (now.dev !== frame.identity.dev || now.ino !== frame.identity.ino)) {
      void dir.close();
      return this.skipRest(frame);
    }
    frame.dir = dir;
    frame.prefix = this.prefixOf(dir);
  }

  /** Done with the top frame: its directory is given back. */
  pop(): void {
    void this.stack.pop()?.dir?.close();
  }

  /** Opens entry `index` of `frame` (the working directory) as a directory, never through a link; NONE when it is not one (any more). */
  openChild(frame: Frame, index: number): number {
    const name = frame.entries[index].name;
    try {
      return openSync(frame.prefix + name, DIRECTORY_FLAGS);
    } catch (error) {
      const code = errnoOf(error);
      // Security: ELOOP/ENOTDIR is an entry swapped for a link or a file since the listing: never entered.
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return NONE;
      throw translate(error, this.pathOf(childRelativePath(frame, name)), 'directory');
    }
  }

  /** A child directory opened ahead, to be entered: the helper lists it meanwhile. */
  openedAhead(fd: number): void {
    this.eager += 1;
    this.listings?.request(fd);
  }

  /**
   * Enters the child directory `fd` (named `name` in `parent`): verified, listed and pushed. When
   * the stack then holds too many fds, the shallowest is given back, once `beforeGivingBack` has
   * judged whatever of it still needs its directory.
   */
  enter(parent: Frame, name: string, fd: number, beforeGivingBack: (frame: Frame) => void): void {
    const relativePath = childRelativePath(parent, name);
    const dir = new Dir(fd, this.pathOf(relativePath), this.walker.procFd);
    const child = newFrame(dir, this.prefixOf(dir), relativePath, parent.depth + 1);
    try {
      this.changeInto(child);
      this.verify(child, dir);
      child.entries = this.list(child);
      this.readRules(child);
    } catch (error) {
      this.listings?.abandon(fd);
      void dir.close();
      throw error;
    }
    this.stack.push(child);
    this.closeShallowest(beforeGivingBack);
  }

  /** See WorkingDirectory: lookups in the directory being scanned are of bare names (procFd only). */
  changeInto(frame: Frame): void {
    if (!this.walker.procFd || frame.dir === null) return;
    try {
      this.place.enter(frame, frame.dir.fd);
    } catch (error) {
      throw translate(error, this.pathOf(frame.relativePath), 'directory');
    }
  }

  /** The end of a slice: the working directory is given back, and the helper lists the children opened in it while the event loop serves others. */
  endSlice(): void {
    this.place.leave();
    this.listings?.flush();
  }

  close(): void {
    for (const frame of this.stack) {
      void frame.dir?.close();
      for (let index = frame.next; index < frame.prepared; index += 1) if (frame.children[index] >= 0) this.closeUnentered(frame.children[index]);
    }
    this.stack.length = 0;
    this.eager = 0;
  }

  pathOf(relativePath: string): RootPath {
    return relativePath === '' ? this.base : { root: this.base.root, segments: [...this.base.segments, ...relativePath.split('/')] };
  }

  /** What is left of a directory that is gone (or not the one listed) is skipped, like any vanished directory. */
  private skipRest(frame: Frame): void {
    frame.entries.length = frame.prepared;
    for (let index = frame.next; index < frame.prepared; index += 1) if (frame.children[index] === LATER) frame.children[index] = NONE;
  }

  /**
   * Security: defense in depth, as Walker.verify: the kernel's own name for the directory must lie
   * inside the root. It is the working directory now, so getcwd names it without a /proc lookup;
   * the walker's check (which also handles paths past PATH_MAX) when that cannot answer.
   */
  private verify(frame: Frame, dir: Dir): void {
    const here = this.walker.procFd ? kernelWorkingDirectory() : null;
    if (here === null) return this.walker.verifySync(dir, this.base.root, this.walk);
    if (hostPathInside(this.base.root.hostPath, here) === null) throw outsideRoot(this.pathOf(frame.relativePath), here);
  }

  private prefixOf(dir: Dir): string {
    return this.walker.procFd ? '' : `${dir.self}/`;
  }

  /**
   * Keeps at most MAX_OPEN_DIRECTORIES fds on the stack: a deep tree gives back its shallowest ones
   * (never the start's). They are fully prepared, so only a child left for LATER needs one reopened.
   */
  private closeShallowest(beforeGivingBack: (frame: Frame) => void): void {
    const excess = this.stack.length - MAX_OPEN_DIRECTORIES;
    if (excess <= 0) return;
    const frame = this.stack[excess];
    if (frame.dir === null) return;
    this.changeInto(frame);
    beforeGivingBack(frame);
    const { dev, ino } = fstatSync(frame.dir.fd);
    frame.identity = { dev, ino };
    void frame.dir.close();
    frame.dir = null;
  }

  /** TreeScanOptions.directoryFiles of the directory just listed, which is the working directory (see readDirectoryFiles). */
  private readRules(frame: Frame): void {
    const wanted = this.options.directoryFiles;
    if (wanted !== undefined) wanted.found(frame.relativePath, readDirectoryFiles(frame.prefix, frame.entries, wanted));
  }

  private list(frame: Frame): ListedEntry[] {
    const fetched = frame.dir === null ? undefined : this.listings?.take(frame.dir.fd);
    let entries: ListedEntry[];
    if (fetched !== undefined) entries = fetched;
    else {
      try {
        entries = readdirSync(frame.prefix === '' ? '.' : frame.prefix, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: direntKind(entry) }));
      } catch (error) {
        throw translate(error, this.pathOf(frame.relativePath), 'directory');
      }
    }
    // A temp file of a write in progress (or a lock) is an implementation detail, not an entry (unless asked for).
    const shown = this.options.includeWorkNames ? entries : entries.filter((entry) => !isOwnWorkFile(entry.name));
    return sortByCodePoints(shown, (entry) => entry.name);
  }

  /** A child directory opened ahead and never entered: its listing, if asked for, is no longer wanted. */
  private closeUnentered(fd: number): void {
    this.listings?.abandon(fd);
    closeSync(fd);
  }
}
