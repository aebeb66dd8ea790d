/**
 * Entries changed through this server (a write of any tool), as every replica needs to hear of them
 * for subscriptions. Security: a change names its root by a key derived from the root's directory
 * (RootKeys), never by a host path, and the entries by their in-root segments only; a receiver
 * maps the key to the roots it serves and ignores any other.
 */
export interface EntryChange {
  /** RootKeys.of(root): the same on every replica serving the same directory. */
  readonly rootKey: string;
  /** In-root paths, as segments ([] is the root itself): one for a write, two for a move. */
  readonly paths: readonly (readonly string[])[];
}

export type EntryChangeListener = (change: EntryChange) => void;

/**
 * Carries EntryChanges to every listener of every replica: in process (one replica) or over a
 * message bus (several). A publisher's own listeners hear its change at once, exactly once.
 */
export interface ChangeFeed {
  /** Fire and forget: never throws and never makes the write that caused it wait for the bus. */
  publish(change: EntryChange): void;
  /** Every change published here or, through the bus, by another replica; returns the unsubscribe. */
  subscribe(listener: EntryChangeListener): () => void;
  close(): Promise<void>;
}
