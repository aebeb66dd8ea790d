import { DomainError, errors, inRoot } from './errors.js';
import { fitsHostPath, hostPathTooLong } from './path-policy.js';
import type { CopyBatchEntry, EntryStat, FileSystemPort } from './ports/file-system.port.js';
import { baseName, childPath, displayPath, parentPath, type RootPath } from './roots.js';
import { walkTree, type WalkEntry } from './tree-walker.js';
import { throwIfCancelled, type WorkContext } from './work-context.js';

export interface SkippedEntry {
  readonly path: string;
  readonly reason: string;
}

export interface TreeCopyOutcome {
  readonly size: number;
  readonly filesCopied: number;
  readonly skipped: SkippedEntry[];
}

/** Where copy/move put the source, and what is already there (not followed). */
export interface Placement {
  readonly target: RootPath;
  readonly existing: EntryStat | null;
}

/**
 * FR-014/FR-015: a destination that is an existing directory (or an in-root link to one)
 * receives the source under its own name; anything else is the target itself.
 */
export async function placeSource(fs: FileSystemPort, source: RootPath, destination: RootPath): Promise<Placement> {
  const destinationStat = await fs.stat(destination, { followSymlinks: true });
  if (destinationStat?.kind !== 'directory') {
    return { target: destination, existing: await fs.stat(destination) };
  }
  // A whole root has no base name of its own: it arrives under the root's name.
  const target = childPath(destination, baseName(source) || source.root.name);
  return { target, existing: await fs.stat(target) };
}

/** Refuses a target that is the source itself or lies below it (a directory into its own subtree). */
export function assertNotIntoItself(verb: 'copy' | 'move', source: RootPath, target: RootPath): void {
  const relation = relationOf(source, target);
  if (relation !== 'apart') throw intoItself(verb, source, target, relation);
}

/**
 * assertNotIntoItself for a directory copy, judged on where both paths really lead, so that
 * an in-root link on the way (`alias/inner` with `alias -> dir`) cannot hide a target inside
 * the source. The source's own link is followed, as copy follows it; the target's is not (it
 * is replaced, never written through). A move needs no such check: rename itself refuses.
 */
export async function assertNotCopiedIntoItself(fs: FileSystemPort, source: RootPath, target: RootPath): Promise<void> {
  const [physicalSource, physicalParent] = await Promise.all([physicalPath(fs, source), physicalPath(fs, parentPath(target))]);
  // A link that leaves the root or loops: the port refuses that path itself.
  if (physicalSource === null || physicalParent === null) return;
  const relation = relationOf(physicalSource, childPath(physicalParent, baseName(target)));
  if (relation !== 'apart') throw intoItself('copy', source, target, relation);
}

/**
 * The link-free path `path` leads to: every in-root link on the way, the last component
 * included, replaced by its target. Components that do not exist yet are kept as named;
 * null when a link leaves the root or loops.
 */
async function physicalPath(fs: FileSystemPort, path: RootPath): Promise<RootPath | null> {
  let resolved: RootPath = { root: path.root, segments: [] };
  for (let index = 0; index < path.segments.length; index += 1) {
    const candidate = childPath(resolved, path.segments[index]);
    const stat = await fs.stat(candidate);
    if (stat === null) return { root: path.root, segments: [...candidate.segments, ...path.segments.slice(index + 1)] };
    if (stat.kind !== 'symlink') {
      resolved = candidate;
      continue;
    }
    if (stat.link?.resolvedPath === undefined) return null;
    resolved = stat.link.resolvedPath;
  }
  return resolved;
}

function relationOf(source: RootPath, target: RootPath): 'same' | 'inside' | 'apart' {
  if (source.root.name !== target.root.name || source.segments.length > target.segments.length) return 'apart';
  if (!source.segments.every((segment, index) => target.segments[index] === segment)) return 'apart';
  return source.segments.length === target.segments.length ? 'same' : 'inside';
}

function intoItself(verb: 'copy' | 'move', source: RootPath, target: RootPath, relation: 'same' | 'inside'): DomainError {
  const shown = `${displayPath(source)} -> ${displayPath(target)}${inRoot(source.root.name)}`;
  if (relation === 'same') return errors.invalidArgument(`source and destination are the same: ${shown}`);
  return errors.invalidArgument(`cannot ${verb} a directory into itself or its own subtree: ${shown}`);
}

export function directoryOverFile(verb: 'copy' | 'move', target: RootPath): DomainError {
  return new DomainError(
    'NOT_A_DIRECTORY',
    `cannot ${verb} a directory over an existing file: ${displayPath(target)}${inRoot(target.root.name)}`,
    { root: target.root.name, attemptedPath: displayPath(target) },
  );
}

/** Creates the target's missing parents (the root itself always exists). */
export async function ensureParent(fs: FileSystemPort, target: RootPath): Promise<void> {
  if (target.segments.length > 1) await fs.createDirectory(parentPath(target));
}

/**
 * Lists the whole source tree before anything is written, so a destination reached
 * through a link into the source cannot make the copy feed on itself.
 */
export async function snapshotTree(fs: FileSystemPort, source: RootPath, work?: WorkContext): Promise<WalkEntry[]> {
  const entries: WalkEntry[] = [];
  for await (const entry of walkTree(fs, source, { work })) entries.push(entry);
  return entries;
}

/**
 * Recreates a snapshot under `target`. Every read and write goes through the port, so each
 * path is confined to its root (NFR-009). OQ-004: symlinks are neither followed nor
 * recreated: following could duplicate data from elsewhere in the root or loop, and a
 * recreated link could point somewhere else relative to its new place. They are reported.
 */
export async function copySnapshot(
  fs: FileSystemPort,
  source: RootPath,
  entries: readonly WalkEntry[],
  target: RootPath,
  work?: WorkContext,
): Promise<TreeCopyOutcome> {
  let size = 0;
  let filesCopied = 0;
  const destinationOf = (entry: WalkEntry): RootPath => ({
    root: target.root,
    segments: [...target.segments, ...entry.path.segments.slice(source.segments.length)],
  });
  // Before anything is written: an entry past PATH_MAX would fail half-way through the copy.
  const tooDeep = entries.find((entry) => isCopied(entry) && !fitsHostPath(destinationOf(entry)));
  if (tooDeep !== undefined) throw hostPathTooLong(destinationOf(tooDeep));
  const sourceStat = await fs.stat(source, { followSymlinks: true });
  // Folders this copy made, with the mode each gets once everything under it is in place.
  const made: { readonly path: RootPath; readonly permissions: number }[] = [];
  const targetMode = sourceStat?.permissions ?? FILLING;
  if ((await fs.createDirectory(target, { permissions: fillingMode(targetMode) })).created) {
    made.push({ path: target, permissions: targetMode });
  }
  let done = 0;
  for (const batch of folderBatches(entries.filter(isCopied), destinationOf)) {
    // A cancelled copy stops between batches; what was copied so far stays (move removes it).
    throwIfCancelled(work);
    work?.progress?.(done, entries.length, 'entries copied');
    const outcome = await fs.copyBatch(batch.map(({ entry }) => entry));
    outcome.placed.forEach((placed, index) => {
      const { entry, permissions } = batch[index];
      if (entry.kind === 'directory') {
        if (placed.created) made.push({ path: entry.to, permissions });
        return;
      }
      size += placed.size;
      filesCopied += 1;
    });
    if (outcome.failure !== undefined) throw outcome.failure;
    done += batch.length;
  }
  // Innermost first (the walk is pre-order), so a folder without write permission is filled before it closes.
  for (const folder of made.reverse()) {
    if (folder.permissions !== fillingMode(folder.permissions)) await fs.setDirectoryPermissions(folder.path, folder.permissions);
  }
  work?.progress?.(entries.length, entries.length, 'entries copied');
  // OQ-004: symlinks are neither followed nor recreated, and neither is anything but a file or a folder.
  const skipped = entries
    .filter((entry) => !isCopied(entry))
    .map((entry) => ({ path: displayPath(entry.path), reason: entry.stat.kind === 'symlink' ? 'symlink' : 'not a regular file' }));
  return { size, filesCopied, skipped };
}

/**
 * Security: every folder a copy makes is never wider than its source's, from the moment it is made:
 * a private folder (0700, 0750) is never readable to others in between, and the copy never ends
 * wider than its source (the port's default for new folders is 0755).
 */
const FILLING = 0o700;

/**
 * The mode a folder is made with: its source's own when that lets its owner fill it (no wider than
 * the end, and no chmod after: one per folder would walk the path again, depth^2 on a deep tree),
 * else 0700 until the end (a 0555 folder).
 */
function fillingMode(permissions: number): number {
  return (permissions & FILLING) === FILLING ? permissions : FILLING;
}

/** Entries of one destination folder copied as one batch at most: each holds its folder open, and its source bytes are read meanwhile. */
const BATCH_ENTRIES = 128;
const BATCH_BYTES = 16 * 1024 * 1024;

/**
 * The copied entries grouped by destination folder, parents before children (the walk is
 * pre-order), so that each folder is synced once per batch, not once per entry (FileSystemPort.copyBatch).
 */
function folderBatches(entries: readonly WalkEntry[], destinationOf: (entry: WalkEntry) => RootPath): BatchItem[][] {
  const folders = new Map<string, { batches: BatchItem[][]; bytes: number }>();
  for (const entry of entries) {
    const to = destinationOf(entry);
    const key = keyOf(parentPath(to));
    let folder = folders.get(key);
    if (folder === undefined) {
      folder = { batches: [[]], bytes: 0 };
      folders.set(key, folder);
    }
    const size = entry.stat.kind === 'file' ? entry.stat.size : 0;
    const last = folder.batches[folder.batches.length - 1];
    if (last.length >= BATCH_ENTRIES || (last.length > 0 && folder.bytes + size > BATCH_BYTES)) {
      folder.batches.push([]);
      folder.bytes = 0;
    }
    const item: CopyBatchEntry = entry.stat.kind === 'file' ? { kind: 'file', from: entry.path, to } : { kind: 'directory', to, permissions: fillingMode(entry.stat.permissions) };
    folder.batches[folder.batches.length - 1].push({ entry: item, permissions: entry.stat.permissions });
    folder.bytes += size;
  }
  return [...folders.values()].flatMap((folder) => folder.batches);
}

/** One entry of a batch, with its source's permissions (for a folder: the mode it gets at the end). */
interface BatchItem {
  readonly entry: CopyBatchEntry;
  readonly permissions: number;
}

function keyOf(path: RootPath): string {
  return path.segments.join('/');
}

function isCopied(entry: WalkEntry): boolean {
  return entry.stat.kind === 'file' || entry.stat.kind === 'directory';
}
