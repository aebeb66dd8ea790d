import type { IndexStore, RootIdentity } from '../../domain/ports/index-store.port.js';
import type { Root } from '../../domain/roots.js';

/**
 * The index store in process memory, for tests: each host path has an inode of its own until
 * repoint() makes another folder of that path (a root moved elsewhere, or its folder replaced).
 */
export class InMemoryIndexStore implements IndexStore {
  private readonly stored = new Map<string, Uint8Array>();
  private readonly inodes = new Map<string, number>();
  private nextInode = 1;

  async identify(root: Root): Promise<RootIdentity | undefined> {
    let inode = this.inodes.get(root.hostPath);
    if (inode === undefined) {
      inode = this.nextInode++;
      this.inodes.set(root.hostPath, inode);
    }
    return { name: root.name, device: 1, inode, born: 0 };
  }

  async load(rootName: string): Promise<Uint8Array | undefined> {
    const bytes = this.stored.get(rootName);
    return bytes === undefined ? undefined : bytes.slice();
  }

  async save(rootName: string, bytes: Uint8Array): Promise<void> {
    this.stored.set(rootName, bytes.slice());
  }

  async remove(rootName: string): Promise<void> {
    this.stored.delete(rootName);
  }

  /** Another folder now sits at `hostPath`. */
  repoint(hostPath: string): void {
    this.inodes.delete(hostPath);
  }

  /** The root names with bytes stored. */
  names(): string[] {
    return [...this.stored.keys()];
  }
}
