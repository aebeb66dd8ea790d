import type { ChangeFeed, EntryChange, EntryChangeListener } from '../../../domain/ports/change-feed.port.js';

/** The change feed of a single replica (no session_store.url): each change goes to this process's listeners at once. */
export class InProcessChangeFeed implements ChangeFeed {
  private readonly listeners = new Set<EntryChangeListener>();

  publish(change: EntryChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // One listener's failure is its own: the write that published succeeded, and the others are still told.
      }
    }
  }

  subscribe(listener: EntryChangeListener): () => void {
    const entry: EntryChangeListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
