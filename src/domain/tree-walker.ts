import { compareCodePoints, sortByCodePoints } from './code-point-order.js';
import type { EntryStat, FileSystemPort } from './ports/file-system.port.js';
import { childPath, type RootPath } from './roots.js';
import { throwIfCancelled, type WorkContext } from './work-context.js';

export interface WalkEntry {
  /** In-root path, usable with every port method and as a tool argument. */
  readonly path: RootPath;
  /** '/'-separated path relative to where the walk started. */
  readonly relativePath: string;
  /** 1 for entries directly in the start directory. */
  readonly depth: number;
  /** The entry itself, not followed; a link's target is not described (`link` is unset). */
  readonly stat: EntryStat;
}

export interface WalkOptions {
  /** Deepest level yielded; directories at this level are yielded but not entered. */
  readonly maxDepth?: number;
  /** Cancellation: the walk throws CANCELLED at the next entry once the signal is aborted. */
  readonly work?: WorkContext;
}

interface Frame {
  readonly directory: RootPath;
  readonly relativePath: string;
  readonly entries: readonly EntryStat[];
  next: number;
}

/**
 * Depth-first, pre-order walk below `start` (which must be a directory), names sorted in code
 * point order so results are stable. Consumers may stop at any time (break / return).
 *
 * Security (NFR-009): every directory is listed through the port, which confines each call
 * to the root, and symlinks are yielded but never followed, whether they point at files or
 * directories (ripgrep's default): a link can neither lead the walk out of the root nor
 * into a cycle. Only `start` itself may be reached through an in-root link.
 */
export async function* walkTree(fs: FileSystemPort, start: RootPath, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  throwIfCancelled(options.work);
  const first = await listDirectory(fs, start);
  if (first === null) return;
  const stack: Frame[] = [{ directory: start, relativePath: '', entries: first, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    throwIfCancelled(options.work);
    const stat = frame.entries[frame.next++];
    const depth = stack.length;
    const entry: WalkEntry = {
      path: childPath(frame.directory, stat.name),
      relativePath: frame.relativePath === '' ? stat.name : `${frame.relativePath}/${stat.name}`,
      depth,
      stat,
    };
    yield entry;
    if (stat.kind !== 'directory' || (options.maxDepth !== undefined && depth >= options.maxDepth)) continue;
    const entries = await listDirectory(fs, entry.path);
    if (entries !== null) stack.push({ directory: entry.path, relativePath: entry.relativePath, entries, next: 0 });
  }
}

/** Sorted entries, or null when the directory vanished after its parent was listed. */
async function listDirectory(fs: FileSystemPort, directory: RootPath): Promise<EntryStat[] | null> {
  try {
    // Links are never followed here, so describing where each one leads would be wasted walks.
    const entries = await fs.readDirectory(directory, { describeLinks: false });
    return sortByCodePoints(entries, (entry) => entry.name);
  } catch (error) {
    if (isVanished(error)) return null;
    throw error;
  }
}

function isVanished(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'NOT_FOUND';
}
