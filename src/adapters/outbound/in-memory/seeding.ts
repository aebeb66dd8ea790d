import { hostPathInside, normalizeAbsolute } from '../../../domain/path-policy.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import type { EntryKind } from '../../../domain/ports/file-system.port.js';
import { type DirectoryNode, hostSegments, newDirectory, newFile, newSpecial, newSymlink, Tree, type TreeNode } from './tree.js';

const DEFAULT_NOW = new Date('2026-01-01T00:00:00Z');
const defaultClock: Clock = { now: () => new Date(DEFAULT_NOW) };

/**
 * The test-facing half of InMemoryFileSystem: building fixtures and asserting on state
 * by host-style absolute paths, with lstat semantics (links are never followed here).
 */
export class InMemorySeeding {
  protected readonly tree: Tree;
  protected readonly failingWrites = new Set<string>();
  private readonly devices = new Map<string, number>();

  constructor(private readonly clock: Clock = defaultClock) {
    this.tree = new Tree(this.now());
  }

  /** mkdir -p; `permissions` applies to the last directory. */
  seedDirectory(hostPath: string, options: { permissions?: number } = {}): void {
    const directory = this.ensureHostDirectory(hostSegments(hostPath));
    if (options.permissions !== undefined) directory.permissions = options.permissions;
  }

  seedFile(hostPath: string, content: string | Uint8Array, options: { permissions?: number; modifiedAt?: Date } = {}): void {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content.slice();
    const file = newFile(this.now(), bytes, options.permissions);
    if (options.modifiedAt) file.modifiedAt = new Date(options.modifiedAt);
    this.place(hostPath, file);
  }

  seedSymlink(hostPath: string, linkText: string): void {
    this.place(hostPath, newSymlink(this.now(), linkText));
  }

  /** A FIFO (mkfifo): an entry of kind 'other', which no tool may open. */
  seedFifo(hostPath: string, options: { permissions?: number } = {}): void {
    this.place(hostPath, newSpecial(this.now(), options.permissions));
  }

  /** Entries at or under `hostPathPrefix` live on device `deviceId` (everything else: device 0). */
  seedDevice(hostPathPrefix: string, deviceId: number): void {
    this.devices.set(normalizeAbsolute(hostPathPrefix), deviceId);
  }

  /** The next writeFile/copyFile aimed at this path fails with IO_ERROR and leaves it untouched. */
  failNextWrite(hostPath: string): void {
    this.failingWrites.add(normalizeAbsolute(hostPath));
  }

  readText(hostPath: string): string | undefined {
    const bytes = this.readBytes(hostPath);
    return bytes && new TextDecoder().decode(bytes);
  }

  readBytes(hostPath: string): Uint8Array | undefined {
    const node = this.tree.lookupHost(hostPath);
    return node?.kind === 'file' ? node.data.slice() : undefined;
  }

  exists(hostPath: string): boolean {
    return this.tree.lookupHost(hostPath) !== undefined;
  }

  kindOf(hostPath: string): EntryKind | undefined {
    return this.tree.lookupHost(hostPath)?.kind;
  }

  permissionsOf(hostPath: string): number | undefined {
    return this.tree.lookupHost(hostPath)?.permissions;
  }

  modifiedAtOf(hostPath: string): Date | undefined {
    const node = this.tree.lookupHost(hostPath);
    return node && new Date(node.modifiedAt);
  }

  /** Sorted entry names; [] when there is no directory there. */
  list(hostDirectory: string): string[] {
    const node = this.tree.lookupHost(hostDirectory);
    return node?.kind === 'directory' ? [...node.children.keys()].sort() : [];
  }

  /** The text of the symlink at hostPath, for assertions. */
  linkTextOf(hostPath: string): string | undefined {
    const node = this.tree.lookupHost(hostPath);
    return node?.kind === 'symlink' ? node.text : undefined;
  }

  protected now(): Date {
    return new Date(this.clock.now());
  }

  protected deviceOf(hostPath: string): number {
    let best: { length: number; id: number } = { length: -1, id: 0 };
    for (const [prefix, id] of this.devices) {
      if (hostPathInside(prefix, hostPath) !== null && prefix.length > best.length) best = { length: prefix.length, id };
    }
    return best.id;
  }

  private place(hostPath: string, node: TreeNode): void {
    const segments = hostSegments(hostPath);
    if (segments.length === 0) throw new Error('InMemoryFileSystem: cannot replace /');
    const parent = this.ensureHostDirectory(segments.slice(0, -1));
    parent.children.set(segments[segments.length - 1], node);
  }

  private ensureHostDirectory(segments: readonly string[]): DirectoryNode {
    let directory = this.tree.top;
    for (const [index, name] of segments.entries()) {
      let child = directory.children.get(name);
      if (!child) {
        child = newDirectory(this.now());
        directory.children.set(name, child);
      }
      if (child.kind !== 'directory') {
        throw new Error(`InMemoryFileSystem: /${segments.slice(0, index + 1).join('/')} is a ${child.kind}, not a directory`);
      }
      directory = child;
    }
    return directory;
  }
}
