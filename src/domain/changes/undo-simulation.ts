import type { BeforeImage, ChangeRecord, EntryState } from '../ports/change-journal.port.js';
import { displayPath, type RootPath } from '../roots.js';
import type { SimulatedTree } from './restorer.js';
import { childOf, type Snapshots } from './snapshots.js';

/** One path as the simulated undos left it: its state, and a file's content when known. */
interface Simulated {
  readonly state: EntryState | null;
  readonly content?: Uint8Array;
}

/**
 * What a dry run of undo_changes sees (issue 32): the undos of newer changes are played here, in
 * the order the real call makes them, so an older change of the same path is checked against the
 * state they would leave, as the real call checks it, rather than against today's file. Nothing is
 * written; paths no undo touched read through to what is there now.
 */
export class UndoSimulation implements SimulatedTree {
  private readonly paths = new Map<string, Simulated & { readonly path: RootPath }>();

  constructor(private readonly snapshots: Snapshots) {}

  /** What is at `path` once the simulated undos ran: as they left it, else as it is now. */
  async state(path: RootPath, follow = false): Promise<EntryState | null> {
    const simulated = this.lookup(path);
    return simulated === undefined ? this.snapshots.state(path, follow) : simulated.state;
  }

  /** A file's content as the simulated undos left it; undefined when they did not touch it (or left no file). */
  content(path: RootPath): Uint8Array | undefined {
    return this.lookup(path)?.content;
  }

  /** What a diff starts from once the simulated undos ran: undefined where they did not touch the path, null where they left no file of known content. */
  diffBase(path: RootPath): Uint8Array | null | undefined {
    const simulated = this.lookup(path);
    if (simulated === undefined) return undefined;
    if (simulated.state === null) return new Uint8Array(0);
    return simulated.content ?? null;
  }

  simulated(path: RootPath): EntryState | null | undefined {
    return this.lookup(path)?.state;
  }

  putFileBelow(folder: RootPath): boolean {
    const below = `${keyOf(folder)}/`;
    for (const [key, { path }] of this.paths) {
      if (!key.startsWith(below)) continue;
      const state = this.lookup(path)?.state;
      if (state !== undefined && state !== null && state.kind !== 'directory') return true;
    }
    return false;
  }

  /** Plays the undo of `record`: what is at its paths from now on is what the restore leaves. */
  async undo(record: ChangeRecord, image: BeforeImage | null, source: RootPath, target: RootPath): Promise<void> {
    const own = image?.entries[0]?.content;
    switch (record.op) {
      case 'create':
      case 'mkdir':
        return this.set(target, { state: null });
      case 'modify':
      case 'remove':
      case 'copy':
        return this.set(target, own === undefined ? { state: null } : { state: record.before, content: own });
      case 'move': {
        // Renamed back, so the origin holds what the destination holds now; the destination gets back what the move replaced.
        const moved = { state: await this.state(target), content: this.content(target) };
        this.set(target, own === undefined ? { state: null } : { state: record.before, content: own });
        return this.set(source, moved);
      }
      case 'rmdir':
        this.set(target, { state: record.before });
        for (const entry of image?.entries ?? []) {
          if (entry.relativePath === '') continue;
          const at = childOf(target, entry.relativePath);
          if (entry.kind === 'directory') this.set(at, { state: { kind: 'directory', size: 0, mode: entry.mode, sha256: null } });
          else if (entry.content !== undefined) this.set(at, { state: { kind: 'file', size: entry.content.byteLength, mode: entry.mode, sha256: this.snapshots.sha256(entry.content) }, content: entry.content });
        }
        return;
    }
  }

  private set(path: RootPath, simulated: Simulated): void {
    const key = keyOf(path);
    // What was set below a path that is now replaced is gone with it.
    for (const other of [...this.paths.keys()]) if (other.startsWith(`${key}/`)) this.paths.delete(other);
    this.paths.set(key, { ...simulated, path });
  }

  /** The simulated entry at `path`; nothing where an undo removed a folder (or put a file) above it. */
  private lookup(path: RootPath): Simulated | undefined {
    const exact = this.paths.get(keyOf(path));
    if (exact !== undefined) return exact;
    for (let depth = path.segments.length - 1; depth >= 0; depth -= 1) {
      const above = this.paths.get(keyOf({ root: path.root, segments: path.segments.slice(0, depth) }));
      if (above !== undefined && above.state?.kind !== 'directory') return { state: null };
    }
    return undefined;
  }
}

function keyOf(path: RootPath): string {
  return `${path.root.name}:${displayPath(path)}`;
}
