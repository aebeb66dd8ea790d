import type { IndexStore } from '../ports/index-store.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Root } from '../roots.js';
import { nextTurn, runInSlices } from './steps.js';
import { openStoredIndex, sealStoredIndex } from './stored-index.js';
import type { TrigramIndex } from './trigram-index.js';

export interface IndexPersistenceSettings {
  /** search.index.max_bytes: a stored index larger than this is not kept. */
  readonly maxBytes: number;
  /** Nor one larger than this share of the text it indexes (issue 31.2: about 15%)... */
  readonly maxTextShare: number;
  /** ...unless it is under this size (a small root's paths and stamps outweigh its text; a scan of it is quick, a 1 MiB file is nothing). */
  readonly minShareBound: number;
  /** A save waits until no other was asked for this long (a build, then a burst of refreshes). */
  readonly debounceMs: number;
  /** How long an encode or decode runs before it gives way to calls (default SLICE_MS). */
  readonly sliceMs?: number;
}

export const PERSISTENCE_DEFAULTS = { maxTextShare: 0.15, minShareBound: 1024 * 1024, debounceMs: 2000 } as const;

export type SaveOutcome = 'saved' | 'too-large' | 'failed';

/**
 * Keeps each root's index in the IndexStore between runs: loaded when a root's first search asks,
 * beside that search and never before it (never at start-up), and saved a while after a build or
 * refresh, off every call's path. A stored index is a hint like a built one (every file is checked
 * by its stamp before it is trusted); one that is corrupt, of another format or of another tree is
 * logged, removed and rebuilt.
 */
export class IndexPersistence {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  /** Roots whose index is being encoded now: its refreshes wait (see encoding). */
  private readonly saving = new Map<string, Promise<unknown>>();
  /** Roots whose search started from a stored index, for the logs and tests. */
  loads = 0;

  constructor(
    private readonly store: IndexStore,
    private readonly logger: Logger,
    private readonly settings: IndexPersistenceSettings,
  ) {}

  async load(root: Root, maxBytes: number, pause: () => Promise<void> = nextTurn): Promise<TrigramIndex | undefined> {
    try {
      const identity = await this.store.identify(root);
      if (identity === undefined) return undefined;
      const bytes = await this.store.load(root.name);
      if (bytes === undefined) return undefined;
      // In slices: a large index decoded at once held every other call for seconds. Calls go on
      // between slices (`pause`: searches first, since a search never waits for a load).
      const opened = await runInSlices(openStoredIndex(identity, bytes, maxBytes), pause, this.settings.sliceMs);
      if ('refused' in opened) {
        this.logger.warn(`stored search index of root "${root.name}" ignored (${opened.refused}); it is built again`, { root: root.name });
        await this.store.remove(root.name);
        return undefined;
      }
      this.loads += 1;
      this.logger.info(`search index of root "${root.name}" loaded from the state directory`, { root: root.name, files: opened.index.size, bytes: bytes.length });
      return opened.index;
    } catch (error) {
      this.logger.warn(`stored search index of root "${root.name}" could not be read (${reasonOf(error)}); it is built again`, { root: root.name });
      return undefined;
    }
  }

  /** Saves the index once no save of this root was asked for debounceMs; `idle` resolves when no search runs. */
  saveLater(root: Root, index: TrigramIndex, idle: () => Promise<void>): void {
    clearTimeout(this.pending.get(root.name));
    const timer = setTimeout(() => {
      this.pending.delete(root.name);
      void this.save(root, index, idle);
    }, this.settings.debounceMs);
    timer.unref?.();
    this.pending.set(root.name, timer);
  }

  /** Saves it now (after the searches running end); over its bound, the stored one is removed instead. */
  async save(root: Root, index: TrigramIndex, idle: () => Promise<void>): Promise<SaveOutcome> {
    try {
      const identity = await this.store.identify(root);
      if (identity === undefined) return 'failed';
      await idle();
      const limit = Math.min(this.settings.maxBytes, Math.max(this.settings.minShareBound, Math.ceil(index.textBytes() * this.settings.maxTextShare)));
      // Encoded in slices that give way to calls (at once it held the server 2.6 s for 130k files); the
      // index must not change meanwhile, so its refreshes wait for `encoding`. Searches only read it.
      // The encode stops at the bound: one that will not be stored is never held whole.
      const encoding = runInSlices(sealStoredIndex(identity, index, limit), idle, this.settings.sliceMs);
      this.saving.set(root.name, encoding);
      const sealed = await encoding.finally(() => this.saving.delete(root.name));
      if (sealed === undefined) {
        this.logger.info(`search index of root "${root.name}" not stored: over its bound of ${limit} bytes`, { root: root.name });
        await this.store.remove(root.name);
        return 'too-large';
      }
      await this.store.save(root.name, sealed);
      this.logger.info(`search index of root "${root.name}" stored: ${sealed.length} bytes`, { root: root.name, files: index.size });
      return 'saved';
    } catch (error) {
      this.logger.warn(`search index of root "${root.name}" could not be stored (${reasonOf(error)})`, { root: root.name });
      return 'failed';
    }
  }

  /** The encode of this root's index under way, if any: a refresh must not change the index until it ends. */
  encoding(rootName: string): Promise<unknown> | undefined {
    return this.saving.get(rootName)?.catch(() => undefined);
  }

  /** Drops the saves not yet made (shutdown). */
  close(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

/** An error's code (ENOENT, EACCES...) rather than its message, which may name a host path. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
