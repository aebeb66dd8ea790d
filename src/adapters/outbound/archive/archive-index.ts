import { type DirectoryNode, hostSegments, newDirectory, newFile, newSpecial, newSymlink, Tree, type TreeNode } from '../in-memory/tree.js';
import type { TarEntry } from './tar-headers.js';

/** The archive's members as a tree mounted at the root's host path, with the names its headers give for ids. */
export interface ArchiveIndex {
  readonly tree: Tree;
  readonly owners: ReadonlyMap<number, string>;
  readonly groups: ReadonlyMap<number, string>;
  /** Members left out, with why (for the server log; never shown to a client as is). */
  readonly refused: readonly string[];
}

const EMPTY = new Uint8Array(0);

/**
 * Security: a member name becomes in-root segments only when it is relative and has no '..':
 * an absolute name or one that climbs is left out, never re-rooted, so what a listing shows is
 * exactly what `tar -x` would put inside the target directory. Returns null for such names.
 */
export function memberSegments(name: string): string[] | null {
  if (name.startsWith('/')) return null;
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.includes('..') ? null : segments;
}

/**
 * Builds the tree once from the headers. Later members win over earlier ones at the same path (as
 * `tar -x` leaves them), except that a directory met again keeps what is below it. A member below
 * an earlier file or link is left out: a link is never a way in while indexing (the classic
 * "link, then a file through the link" escape), and links are judged only when walked, by
 * PathPolicy's rules, like on disk. A hard link must name an earlier regular member; it then
 * shares that member's bytes.
 */
export function indexArchive(rootHostPath: string, entries: readonly TarEntry[], indexedAt: Date): ArchiveIndex {
  const tree = new Tree(indexedAt);
  let top = tree.top;
  for (const name of hostSegments(rootHostPath)) {
    const next = newDirectory(indexedAt);
    top.children.set(name, next);
    top = next;
  }
  const owners = new Map<number, string>();
  const groups = new Map<number, string>();
  const refused: string[] = [];
  for (const entry of entries) {
    const segments = memberSegments(entry.name);
    if (segments === null) {
      refused.push(`${entry.name}: absolute or climbing name`);
      continue;
    }
    if (segments.length === 0) continue;
    const parent = parentDirectory(top, segments, entry.modifiedAt);
    if (parent === null) {
      refused.push(`${entry.name}: below a member that is not a directory`);
      continue;
    }
    const node = nodeOf(entry, top);
    if (node === null) {
      refused.push(`${entry.name}: hard link to ${entry.linkName}, not an earlier regular member`);
      continue;
    }
    const leaf = segments[segments.length - 1];
    const existing = parent.children.get(leaf);
    if (existing?.kind === 'directory' && node.kind === 'directory') Object.assign(existing, { ...node, children: existing.children });
    else parent.children.set(leaf, node);
    if (entry.uname !== '') owners.set(entry.uid, entry.uname);
    if (entry.gname !== '') groups.set(entry.gid, entry.gname);
  }
  return { tree, owners, groups, refused };
}

/** The directory that holds `segments`' last name, made as needed; null when a file or link is in the way. */
function parentDirectory(top: DirectoryNode, segments: readonly string[], modifiedAt: Date): DirectoryNode | null {
  let directory = top;
  for (const name of segments.slice(0, -1)) {
    let child = directory.children.get(name);
    if (child === undefined) {
      child = newDirectory(modifiedAt);
      directory.children.set(name, child);
    }
    if (child.kind !== 'directory') return null;
    directory = child;
  }
  return directory;
}

function nodeOf(entry: TarEntry, top: DirectoryNode): TreeNode | null {
  const owned = { uid: entry.uid, gid: entry.gid, modifiedAt: entry.modifiedAt, createdAt: entry.modifiedAt };
  switch (entry.type) {
    case 'directory':
      return { ...newDirectory(entry.modifiedAt, entry.mode), ...owned };
    case 'file':
      return { ...newFile(entry.modifiedAt, EMPTY, entry.mode), ...owned, stored: { offset: entry.offset, size: entry.size } };
    case 'symlink':
      return { ...newSymlink(entry.modifiedAt, entry.linkName), ...owned };
    case 'hardlink': {
      const target = memberAt(top, memberSegments(entry.linkName));
      return target?.kind === 'file' ? { ...target } : null;
    }
    case 'other':
      return { ...newSpecial(entry.modifiedAt, entry.mode), ...owned };
  }
}

/** The member at exactly these segments, no link followed. */
function memberAt(top: DirectoryNode, segments: readonly string[] | null): TreeNode | undefined {
  if (segments === null || segments.length === 0) return undefined;
  let node: TreeNode = top;
  for (const name of segments) {
    if (node.kind !== 'directory') return undefined;
    const child: TreeNode | undefined = node.children.get(name);
    if (child === undefined) return undefined;
    node = child;
  }
  return node;
}
