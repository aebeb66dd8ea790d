import { MAX_SYMLINK_HOPS, normalizeAbsolute, resolveLinkTarget } from '../../../domain/path-policy.js';
import type { EntryKind, EntryStat, LinkInfo } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';

interface NodeMeta {
  /** Stays with the node through renames and writes; a node made anew gets another. */
  readonly inode: number;
  permissions: number;
  modifiedAt: Date;
  createdAt: Date;
  uid: number;
  gid: number;
}

export interface DirectoryNode extends NodeMeta {
  readonly kind: 'directory';
  readonly children: Map<string, TreeNode>;
}

export interface FileNode extends NodeMeta {
  readonly kind: 'file';
  data: Uint8Array;
  /** Bytes kept elsewhere (an archive member): `data` is then empty and reads go to this extent. */
  readonly stored?: { readonly offset: number; readonly size: number };
}

export interface SymlinkNode extends NodeMeta {
  readonly kind: 'symlink';
  readonly text: string;
}

/** A FIFO (or any other special file): listed and stat'ed as 'other', never opened, read or written. */
export interface SpecialNode extends NodeMeta {
  readonly kind: 'other';
}

export type TreeNode = DirectoryNode | FileNode | SymlinkNode | SpecialNode;

let lastInode = 0;
const nextInode = (): number => (lastInode += 1);

const DEFAULT_UID = 1000;
const DEFAULT_GID = 1000;
const DIRECTORY_SIZE = 4096;

export function newDirectory(now: Date, permissions = 0o755): DirectoryNode {
  return { inode: nextInode(), kind: 'directory', children: new Map(), permissions, modifiedAt: now, createdAt: now, uid: DEFAULT_UID, gid: DEFAULT_GID };
}

export function newFile(now: Date, data: Uint8Array, permissions = 0o644): FileNode {
  return { inode: nextInode(), kind: 'file', data, permissions, modifiedAt: now, createdAt: now, uid: DEFAULT_UID, gid: DEFAULT_GID };
}

export function newSpecial(now: Date, permissions = 0o644): SpecialNode {
  return { inode: nextInode(), kind: 'other', permissions, modifiedAt: now, createdAt: now, uid: DEFAULT_UID, gid: DEFAULT_GID };
}

export function newSymlink(now: Date, text: string): SymlinkNode {
  return { inode: nextInode(), kind: 'symlink', text, permissions: 0o777, modifiedAt: now, createdAt: now, uid: DEFAULT_UID, gid: DEFAULT_GID };
}

/**
 * Outcome of walking an in-root path. `path` is always link-free (every hop resolved), so
 * it doubles as the physical address of the entry.
 */
export type WalkResult =
  | { readonly status: 'found'; readonly path: RootPath; readonly parent: DirectoryNode | null; readonly node: TreeNode }
  /** Everything up to the last component exists; the last one does not. */
  | { readonly status: 'absent'; readonly path: RootPath; readonly parent: DirectoryNode }
  /** An intermediate component is missing. */
  | { readonly status: 'missing'; readonly path: RootPath }
  | { readonly status: 'not-a-directory'; readonly path: RootPath }
  | { readonly status: 'outside'; readonly linkText: string }
  | { readonly status: 'loop' };

class HopCounter {
  private hops = 0;

  /** False once the chain is longer than the kernel would follow. */
  take(): boolean {
    this.hops += 1;
    return this.hops <= MAX_SYMLINK_HOPS;
  }
}

/** A single tree holding every root; roots are directories addressed by their host path. */
export class Tree {
  readonly top: DirectoryNode;

  constructor(now: Date) {
    this.top = newDirectory(now);
  }

  /** The node at a host path, links not followed. */
  lookupHost(hostPath: string): TreeNode | undefined {
    let node: TreeNode = this.top;
    for (const name of hostSegments(hostPath)) {
      if (node.kind !== 'directory') return undefined;
      const child = node.children.get(name);
      if (!child) return undefined;
      node = child;
    }
    return node;
  }

  /**
   * Walks `path` from its root, judging every symlink hop with resolveLinkTarget exactly as
   * the Node adapter does: intermediate links are always followed, the final one only
   * with `followFinal`.
   */
  walk(path: RootPath, followFinal: boolean, hops = new HopCounter()): WalkResult {
    const { root, segments } = path;
    const rootNode = this.lookupHost(root.hostPath);
    if (!rootNode || rootNode.kind !== 'directory') return { status: 'missing', path: { root, segments: [] } };
    let dir: DirectoryNode = rootNode;
    const resolved: string[] = [];
    for (let i = 0; i < segments.length; i += 1) {
      const name = segments[i];
      const last = i === segments.length - 1;
      const child = dir.children.get(name);
      if (!child) {
        const here = { root, segments: [...resolved, ...segments.slice(i)] };
        return last ? { status: 'absent', path: here, parent: dir } : { status: 'missing', path: here };
      }
      if (child.kind === 'symlink' && (!last || followFinal)) {
        if (!hops.take()) return { status: 'loop' };
        // Security: every hop is judged on its own; a chain may not pass through the outside.
        const target = resolveLinkTarget({ root, segments: resolved }, child.text);
        if (!target) return { status: 'outside', linkText: child.text };
        return this.walk({ root, segments: [...target.segments, ...segments.slice(i + 1)] }, followFinal, hops);
      }
      resolved.push(name);
      if (last) return { status: 'found', path: { root, segments: resolved }, parent: dir, node: child };
      if (child.kind !== 'directory') return { status: 'not-a-directory', path: { root, segments: resolved } };
      dir = child;
    }
    return { status: 'found', path: { root, segments: [] }, parent: null, node: rootNode };
  }

  /** Where the symlink `link`, found in the link-free directory `linkDirectory`, leads. */
  describeLink(linkDirectory: RootPath, link: SymlinkNode): LinkInfo {
    const hops = new HopCounter();
    hops.take();
    const target = resolveLinkTarget(linkDirectory, link.text);
    if (!target) return { text: link.text, resolution: 'outside' };
    const result = this.walk(target, true, hops);
    switch (result.status) {
      case 'found':
        return { text: link.text, resolution: 'inside', resolvedPath: result.path, targetKind: result.node.kind };
      case 'absent':
      case 'missing':
        return { text: link.text, resolution: 'missing', resolvedPath: result.path };
      case 'not-a-directory':
        return { text: link.text, resolution: 'missing', resolvedPath: target };
      case 'outside':
        return { text: link.text, resolution: 'outside' };
      case 'loop':
        return { text: link.text, resolution: 'loop' };
    }
  }

  /** `directory` is the link-free in-root path of the directory holding `node`. */
  statOf(name: string, node: TreeNode, directory: RootPath, describeLinks = true): EntryStat {
    const base = {
      name,
      kind: node.kind as EntryKind,
      size: sizeOf(node),
      modifiedAt: new Date(node.modifiedAt),
      createdAt: new Date(node.createdAt),
      permissions: node.permissions & 0o7777,
      uid: node.uid,
      gid: node.gid,
      inode: node.inode,
    };
    return node.kind === 'symlink' && describeLinks ? { ...base, link: this.describeLink(directory, node) } : base;
  }
}

/** A file's size, wherever its bytes are kept. */
export function fileSize(node: FileNode): number {
  return node.stored?.size ?? node.data.length;
}

function sizeOf(node: TreeNode): number {
  switch (node.kind) {
    case 'directory':
      return DIRECTORY_SIZE;
    case 'file':
      return fileSize(node);
    case 'symlink':
      return new TextEncoder().encode(node.text).length;
    case 'other':
      return 0;
  }
}

export function hostSegments(hostPath: string): string[] {
  if (!hostPath.startsWith('/')) throw new Error(`InMemoryFileSystem: host paths are absolute, got ${hostPath}`);
  const normalized = normalizeAbsolute(hostPath);
  return normalized === '/' ? [] : normalized.slice(1).split('/');
}
