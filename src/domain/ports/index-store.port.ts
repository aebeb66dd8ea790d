import type { Root } from '../roots.js';

/** Which tree a root names now: its name and its real path's device, inode and birth time. */
export interface RootIdentity {
  readonly name: string;
  readonly device: number;
  readonly inode: number;
  /** Tells a folder made anew under a freed inode number from the one that had it (0 where unknown). */
  readonly born: number;
}

/**
 * Where each root's search index is kept between runs: the private state directory, never inside a
 * root and never reachable by a tool. Bytes only: what they hold, and whether they may be trusted,
 * is the domain's to decide (stored-index.ts).
 */
export interface IndexStore {
  /** The root's identity now; undefined when its folder cannot be looked at (nothing is then loaded or saved). */
  identify(root: Root): Promise<RootIdentity | undefined>;
  /** The bytes last saved under this root name, or undefined when there are none. */
  load(rootName: string): Promise<Uint8Array | undefined>;
  /** Replaces the root's bytes whole: a reader sees the old bytes or the new ones, never a mix. */
  save(rootName: string, bytes: Uint8Array): Promise<void>;
  /** Forgets the root's bytes (a corrupt or foreign file); none there is not an error. */
  remove(rootName: string): Promise<void>;
}
