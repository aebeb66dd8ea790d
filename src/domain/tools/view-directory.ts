import { DomainError } from '../errors.js';
import { atNamespacePath, namespacePath } from '../namespace.js';
import { hostPathInside, normalizeAbsolute, resolveLinkTarget } from '../path-policy.js';
import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import { childPath, type Root, type RootPath } from '../roots.js';
import { compareCodePoints } from '../code-point-order.js';

/** Directories never shown in a view listing (noise an agent does not edit by hand). */
const HIDDEN_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** A listing stops after this many entries, so a huge tree cannot flood the context. */
export const MAX_LISTING_ENTRIES = 2000;

export interface DirectoryListing {
  /** One entry per line, relative to the listed directory: `src/`, `src/main.go`, `link -> /usr/local/bin`. */
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
    if (!add(describeEntry(entry, '', directory, roots))) return { lines, truncated: true };
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
      if (!add(describeEntry(grandchild, `${entry.name}/`, child, roots))) return { lines, truncated: true };
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

function describeEntry(entry: EntryStat, prefix: string, directory: RootPath, roots: readonly Root[]): string {
  const name = `${prefix}${entry.name}`;
  if (entry.kind === 'directory') return `${name}/`;
  if (entry.kind === 'symlink' && entry.link) return `${name} -> ${describeLinkTarget(directory, entry.link.text, roots)}`;
  return name;
}

/**
 * What a listing shows after `->` for a link in `linkDirectory` with raw text `linkText`.
 *
 * Security: root host paths are never disclosed (list_roots hides them too). A target inside
 * this root, or inside any other root's host path, is shown as its namespace path
 * (/root/...). Only a target outside every root is shown as written (`/usr/local/bin`), and
 * lexically normalised first, so text like `/data/ws/../etc` cannot smuggle a root's host
 * path into the listing. Showing it reveals nothing a caller can use: every tool refuses to
 * follow a link out of its root. (Limit: a target that reaches a root's directory through
 * an alias outside the domain's sight, e.g. a host symlink above the root, cannot be told
 * apart from any other outside path.)
 */
export function describeLinkTarget(linkDirectory: RootPath, linkText: string, roots: readonly Root[]): string {
  const inRoot = resolveLinkTarget(linkDirectory, linkText);
  if (inRoot) return namespacePath(inRoot);
  const absolute = linkText.startsWith('/');
  const hostTarget = normalizeAbsolute(
    absolute ? linkText : [linkDirectory.root.hostPath, ...linkDirectory.segments, linkText].join('/'),
  );
  for (const root of roots) {
    const rest = hostPathInside(root.hostPath, hostTarget);
    if (rest !== null) return namespacePath({ root, segments: rest === '' ? [] : rest.split('/') });
  }
  return absolute ? hostTarget : collapseRelative(linkText);
}

/** `../a/../../b` -> `../../b`: no name in the result is one the path climbs back out of. */
function collapseRelative(text: string): string {
  const out: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  return out.length === 0 ? '.' : out.join('/');
}
