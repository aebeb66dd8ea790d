/** What a change did, in the journal's words (issue 20). */
export type ChangeOp = 'create' | 'modify' | 'remove' | 'move' | 'mkdir' | 'rmdir' | 'copy';

/** One side of a change: what was at the path, or null where nothing existed. */
export interface EntryState {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  /** Permission bits (mode & 0o7777). */
  readonly mode: number;
  /** Lower-case hex of a file's content; null for what is not a file, or a file too large to hash. */
  readonly sha256: string | null;
}

/** A journaled change as list_changes shows it. */
export interface ChangeRecord {
  /** Sortable: a later change has a larger id (string order). */
  readonly id: string;
  /** ISO 8601, UTC. */
  readonly time: string;
  readonly principal: string;
  readonly session: string;
  readonly tool: string;
  readonly op: ChangeOp;
  readonly root: string;
  /**
   * Which directory the root was when the change was made (a hash of its host path, never shown):
   * two deployments sharing a journal directory may both have a root of the same name.
   */
  readonly rootKey: string;
  readonly path: string;
  readonly toRoot?: string;
  readonly toRootKey?: string;
  readonly toPath?: string;
  readonly before: EntryState | null;
  readonly after: EntryState | null;
  readonly undoable: boolean;
  /** Why undoable is false. */
  readonly reason?: string;
  /** What an undo of this (undoable) change cannot bring back: a removed folder's links and special files. */
  readonly notRestorable?: string;
  /** The change this one undid (a change made by undo_changes). */
  readonly undoOf?: string;
  /** Set once an undo restored this change: the id of that undo's change. */
  readonly undoneBy?: string;
}

/** An undo claimed by a server that is gone before it finished or released it. */
export interface UndoInFlight {
  readonly id: string;
  readonly undoId: string;
  readonly force: boolean;
}

/** What a caller knows of a change before it is made; the journal gives it an id and a time. */
export type ChangeDraft = Omit<ChangeRecord, 'id' | 'time' | 'undoneBy'>;

/** One entry of a before-image: the thing itself (relativePath '') or, for a folder, something below it. */
export interface ImageEntry {
  /** '/'-separated, relative to the change's path; '' is the path itself. */
  readonly relativePath: string;
  readonly kind: 'file' | 'directory';
  readonly mode: number;
  /** A file's bytes. */
  readonly content?: Uint8Array;
}

/** What is needed to put back what a change replaced or removed; entries in pre-order (parents first). */
export interface BeforeImage {
  readonly entries: readonly ImageEntry[];
}

export interface ChangeQuery {
  /** Only this principal's changes; undefined: everybody's (the unrestricted principal). */
  readonly principal?: string;
  readonly root?: string;
  /** A change whose path or to_path is this one. */
  readonly path?: string;
  readonly session?: string;
  /** Only changes after this id (not that change itself). */
  readonly afterId?: string;
  /** Only changes before this id (not that change itself): the next page of a list, older. */
  readonly beforeId?: string;
  /** At most this many, newest first. */
  readonly limit?: number;
  /**
   * Only changes whose root (and to_root) is one of these: root name -> root key. A journal shared
   * with another deployment holds its changes too; filtered here, a limit counts only ours.
   */
  readonly roots?: ReadonlyMap<string, string>;
}

/**
 * The change journal as the domain needs it (issue 20): a change is begun (record and before-image
 * durable before the change is made), then committed or aborted; committed changes are listed,
 * their before-images read, and an undo claims a change so that two undos of it never both restore.
 * Adapters: in memory (tests) and on disk (production, fsync'd).
 */
export interface ChangeJournal {
  /** Makes the record (pending) and its before-image durable; returns the record's id. */
  begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string>;
  /** The change was made: the record is listed from now on. */
  commit(id: string, after?: EntryState | null): Promise<void>;
  /** The change was not made: record and image go. */
  abort(id: string): Promise<void>;
  /**
   * Records begun and neither committed nor aborted by a server that is gone (a crash in between),
   * for start-up recovery; a live server's changes in progress are not among them.
   */
  pending(): Promise<ChangeRecord[]>;
  /** Committed records matching the query, newest first. */
  list(query: ChangeQuery): Promise<ChangeRecord[]>;
  /** A committed record, or null. */
  get(id: string): Promise<ChangeRecord | null>;
  /** The before-image of a change, or null when none was kept (or it was evicted). */
  image(id: string): Promise<BeforeImage | null>;
  /**
   * Claims `id` for the undo `undoId`, atomically and durably: false when another undo holds it or
   * finished it. The claim is the undo in flight (with its plan: `force`); the record does not say
   * undone yet, so a crash before `finishUndo` leaves the change undoable once recovery settles it.
   */
  claimUndo(id: string, undoId: string, force?: boolean): Promise<boolean>;
  /** The restore is durable on disk: the record says undone by the claim's undoId (durably), and the claim goes. */
  finishUndo(id: string): Promise<void>;
  /** Gives the claim back (the undo found a conflict or failed): the record is as it was, undoable. */
  releaseUndo(id: string): Promise<void>;
  /** Start-up recovery's: claims of servers that are gone, whose undo was neither finished nor released. */
  undosInFlight(): Promise<UndoInFlight[]>;
  /** Takes over a gone server's claim (from undosInFlight); false when another server took it first. */
  adoptUndo(id: string): Promise<boolean>;
  /** Drops the before-image of `id`; the record stays, not undoable, with the reason. */
  dropImage(id: string, reason: string): Promise<void>;
  /** Removes records (and images) of changes made before `time`. */
  prune(before: Date): Promise<number>;
  /** Bytes held by before-images, and how many records are kept. */
  usage(): Promise<{ readonly bytes: number; readonly records: number }>;
  /**
   * Every byte the store keeps where journal.max_bytes applies (the disk store: its whole
   * directory, records and begin log included), as it will be once the writes of the calls
   * answered are done. Absent: the before-images are all it keeps there (usage().bytes).
   */
  storedBytes?(): Promise<number>;
  /** Frees what the store keeps beyond its records and images (the disk store's begin log); the bounds call it before evicting. */
  compact?(): Promise<void>;
  /** Ids of committed records that still hold an image, oldest first (eviction order). */
  oldestWithImage(limit: number): Promise<string[]>;
  /** Ids of committed records, oldest first. */
  oldest(limit: number): Promise<string[]>;
  /** Removes a committed record and its image (the journal's bounds: the oldest go when records alone pass their share). */
  forget(id: string): Promise<void>;
  /** Shutdown: lets go of what the store holds open (a connection, a heartbeat); stores that hold nothing need none. */
  close?(): Promise<void>;
}

/** Who makes a change: the tool call being served (set by the inbound adapter per call). */
export interface ChangeAuthor {
  readonly principal: string;
  readonly session: string;
  readonly tool: string;
}

/** How far an undo can take back one change, as the call that made it is told. */
export interface UndoReach {
  readonly root: string;
  readonly path: string;
  /** 'partly': an undo brings back all but what `reason` names. */
  readonly undoable: boolean | 'partly';
  /** Why not, or what an undo leaves out. */
  readonly reason?: string;
}

/** Port: the author of the call in progress; undefined outside a tool call (start-up recovery). */
export interface ChangeAuthorContext {
  current(): ChangeAuthor | undefined;
  /** A change of the call of `author` (the object current() gave) was made, undoable this far: the call's result says so. */
  committed(author: ChangeAuthor, reach: UndoReach): void;
}

/** What operators see of the journal (metrics); every method optional to call. */
export interface JournalObserver {
  journalUsage(bytes: number, records: number): void;
  journalEvicted(count: number): void;
  undoOutcome(outcome: string): void;
}
