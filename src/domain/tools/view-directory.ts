import { DomainError } from '../errors.js';
import { atNamespacePath, namespacePath } from '../namespace.js';
import { hostToRootPath, resolveLinkTarget } from '../path-policy.js';
import type { EntryStat, FileSystemPort, LinkInfo } from '../ports/file-system.port.js';
import { childPath, type Root, type RootPath } from '../roots.js';
import { compareCodePoints } from '../code-point-order.js';

/** Directories never shown in a view listing (noise an agent does not edit by hand). */
const HIDDEN_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** A listing stops after this many entries, so a huge tree cannot flood the context. */
const MAX_LISTING_ENTRIES = 2000;

export interface DirectoryListing {
  /** One entry per line, relative to the listed directory: `src/`, `src/main.go`, `link -> [outside the root]`. */
  readonly lines: readonly string[];
  readonly truncated: boolean;
}

/**
 * The entries of `directory` two levels deep, sorted, in tree order. Links are shown, never
 * followed (a listing cannot wander out of the root or loop); only `.git/` and
 * `node_modules/` are left out, every other dotfile is listed.
 */
export async function listTwoLevels(
  files: FileSystemPort,
  directory: RootPath,
  display: string,
  roots: readonly Root[],
): Promise<DirectoryListing> {
  const lines: string[] = [];
  const add = (line: string) => {
    if (lines.length >= MAX_LISTING_ENTRIES) return false;
    lines.push(line);
    return true;
  };
  for (const entry of await visibleEntries(files, directory, display)) {
    if (!add(await describeEntry(files, entry, '', directory, roots))) return { lines, truncated: true };
    if (entry.kind !== 'directory') continue;
    const child = childPath(directory, entry.name);
    let grandchildren: EntryStat[];
    try {
      grandchildren = await visibleEntries(files, child, `${display}/${entry.name}`);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PERMISSION_DENIED') {
        lines[lines.length - 1] += ' [not readable]';
        continue;
      }
      throw error;
    }
    for (const grandchild of grandchildren) {
      if (!add(await describeEntry(files, grandchild, `${entry.name}/`, child, roots))) return { lines, truncated: true };
    }
  }
  return { lines, truncated: false };
}

async function visibleEntries(files: FileSystemPort, directory: RootPath, display: string): Promise<EntryStat[]> {
  const entries = await atNamespacePath(display, () => files.readDirectory(directory));
  return entries
    .filter((entry) => !(entry.kind === 'directory' && HIDDEN_DIRECTORIES.has(entry.name)))
    .sort((a, b) => compareCodePoints(a.name, b.name));
}

async function describeEntry(
  files: FileSystemPort,
  entry: EntryStat,
  prefix: string,
  directory: RootPath,
  roots: readonly Root[],
): Promise<string> {
  const name = `${prefix}${entry.name}`;
  if (entry.kind === 'directory') return `${name}/`;
  if (entry.kind === 'symlink' && entry.link) return `${name} -> ${await describeLinkTarget(files, directory, entry.link, roots)}`;
  return name;
}

/** What a listing shows for a link it cannot show a path for; the one wording every listing uses. */
export const LINK_TARGET_MARKERS = { outside: '[outside the root]', loop: '[link loop]' } as const;

/**
 * What a listing shows after `->` for `link`, an entry of `linkDirectory`.
 *
 * Security: host paths never appear (list_roots hides them too), and the raw text of a link
 * that leaves its root is never shown: the domain cannot recognise every alias of a root's
 * host directory (`/proc/self/root/<host path>`, bind mounts, a host symlink above the root),
 * so such text could carry that directory into a listing. A link whose hops the port
 * confirmed stay in the root is shown as its namespace path (/root/...). One that leaves it
 * (a chain going out, or text naming another root's directory) is shown as the namespace path
 * its text names lexically only when the port, walking that path in that root without
 * following its last name, confirms no hop leaves; otherwise, and for a loop, a fixed marker.
 * Every tool refuses to follow a link out of its root anyway.
 */
export async function describeLinkTarget(
  files: FileSystemPort,
  linkDirectory: RootPath,
  link: LinkInfo,
  roots: readonly Root[],
): Promise<string> {
  if (link.resolution === 'loop') return LINK_TARGET_MARKERS.loop;
  if (link.resolution === 'inside' || link.resolution === 'missing') {
    const inRoot = resolveLinkTarget(linkDirectory, link.text) ?? link.resolvedPath;
    return inRoot ? namespacePath(inRoot) : LINK_TARGET_MARKERS.outside;
  }
  const otherRoot = inSomeRoot(linkDirectory, link.text, roots);
  return otherRoot && (await staysInside(files, otherRoot)) ? namespacePath(otherRoot) : LINK_TARGET_MARKERS.outside;
}

/** The root path (in this root or another) whose host directory the link text names lexically, if any. */
function inSomeRoot(linkDirectory: RootPath, linkText: string, roots: readonly Root[]): RootPath | null {
  const hostTarget = linkText.startsWith('/') ? linkText : [linkDirectory.root.hostPath, ...linkDirectory.segments, linkText].join('/');
  for (const root of roots) {
    const path = hostToRootPath(root, hostTarget);
    if (path !== null) return path;
  }
  return null;
}

/** Whether every hop of `path` stays in its root (the last name, not followed, may be missing). */
async function staysInside(files: FileSystemPort, path: RootPath): Promise<boolean> {
  try {
    await files.stat(path, { followSymlinks: false });
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}
