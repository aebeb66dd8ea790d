import { DomainError, inRoot } from '../errors.js';
import type { BeforeImage, ChangeAuthor, ChangeAuthorContext, ChangeDraft, ChangeJournal, EntryState, JournalObserver, UndoReach } from '../ports/change-journal.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { Confirmation } from '../ports/confirmation.port.js';
import type { CopyBatchEntry, CopyBatchOutcome, EntryStat, FileSystemPort, FileVersion, WriteOptions, WriteResult } from '../ports/file-system.port.js';
import { LOCAL_OPERATOR } from '../principal.js';
import { displayPath, parentPath, type RootPath } from '../roots.js';
import type { WorkContext } from '../work-context.js';
import { JournalBounds, type JournalLimits } from './journal-bounds.js';
import { journaledCopyBatch } from './journaled-copy-batch.js';
import { confirmLoss, type PlannedChange, reasonNotUndoable } from './loss-confirmation.js';
import { ReadThroughFileSystem } from './read-through-file-system.js';
import { Snapshots, stateOf, tooLarge } from './snapshots.js';

const OUTSIDE_A_CALL: ChangeAuthor = { principal: LOCAL_OPERATOR, session: '-', tool: '-' };
const NEW_FOLDER: EntryState = { kind: 'directory', size: 0, mode: 0o755, sha256: null };
/** A replace is tried again this often when the file changed between its before-image and its rename. */
const REPLACE_ATTEMPTS = 3;
type Change = Pick<ChangeDraft, 'op' | 'before' | 'after'> & { readonly toPath?: RootPath; readonly reason?: string; readonly notRestorable?: string };
/** A change begun in the journal: its id, and what its call is told once it is made. */
interface Begun {
  readonly id: string;
  readonly author: ChangeAuthor;
  readonly reach: UndoReach;
}

/**
 * The one recording layer of the change journal (issue 20): a FileSystemPort around the real one.
 * Every write operation is journaled whatever tool calls it: the record and the before-image are
 * durable (ChangeJournal.begin) before the inner operation runs, committed when it succeeded and
 * aborted when it did nothing. Reads pass straight through.
 *
 * Security: the before-image of a replaced file is read through the confined port, and the
 * replace is made conditional on the version read (WriteOptions.expected), so what is kept is
 * exactly what the rename replaced; a concurrent writer makes it read again.
 */
export class JournalingFileSystem extends ReadThroughFileSystem implements FileSystemPort {
  readonly snapshots: Snapshots;
  private readonly bounds: JournalBounds;

  constructor(
    inner: FileSystemPort,
    private readonly journal: ChangeJournal,
    snapshots: Snapshots,
    private readonly authors: ChangeAuthorContext,
    clock: Clock,
    limits: JournalLimits,
    observer?: JournalObserver,
    /** Asked before a change this journal could not take back (issue 30.3); absent: never asked (confirm.enabled false). */
    private readonly confirmation?: Confirmation,
  ) {
    super(inner);
    this.snapshots = snapshots;
    this.bounds = new JournalBounds(journal, clock, limits, observer);
  }

  async writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    const author = this.author();
    // Parents the write would make are made (and recorded) first, so undoing both leaves no folder behind.
    if (options.createParents && path.segments.length > 1 && (await this.firstMissing(parentPath(path))) !== null) {
      await this.makeDirectory(author, parentPath(path));
    }
    for (let attempt = 1; ; attempt += 1) {
      // The record is begun while the adapter writes and syncs the temp file, and the hook (awaited
      // before the rename) hands back the version the before-image was read at, so what is kept is
      // still exactly what the rename replaces.
      // Asked (when the change could not be undone) before the inner write starts: a declined write leaves no temp file behind.
      const planned = this.planWrite(path, data, options).then(async (plan) => {
        if (plan !== null) await this.confirm(author, [{ path, ...plan }]);
        return plan;
      });
      const began = planned.then((plan) => (plan === null ? null : this.begin(author, path, plan.change, plan.image)));
      // Handled below, whichever settles first; a rejection is never left unobserved.
      began.catch(() => undefined);
      // The plan first (a stat and a read): its begin then syncs while the adapter writes and syncs the temp file.
      const declined = await planned.then(
        () => undefined,
        (error: unknown) => (error instanceof DomainError && error.code === 'DECLINED' ? error : undefined),
      );
      if (declined !== undefined) throw declined;
      let result: WriteResult;
      try {
        result = await this.inner.writeFile(path, data, {
          ...options,
          beforeCommit: async () => {
            const plan = await planned;
            await began;
            return plan?.guard === undefined ? undefined : { expected: plan.guard };
          },
        });
      } catch (error) {
        const begun = await began.catch(() => null);
        if (begun !== null) await this.journal.abort(begun.id);
        const guarded = (await planned.catch(() => null))?.guard !== undefined;
        if (!guarded || attempt >= REPLACE_ATTEMPTS || !(error instanceof DomainError) || error.code !== 'CONFLICT') throw error;
        continue;
      }
      const begun = await began;
      if (begun !== null) await this.commit(begun);
      return result;
    }
  }

  /** What a write would record (null: nothing, since the inner write refuses it), read from what is there now. */
  private async planWrite(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<{ change: Change; image: BeforeImage | null; guard?: FileVersion } | null> {
    const before = await this.inner.stat(path, { followSymlinks: true });
    if ((before !== null && before.kind !== 'file') || (before !== null && options.mode === 'create_exclusive')) return null;
    const captured = before === null ? null : await this.snapshots.file(path, before);
    const content = options.mode === 'append' ? (captured?.content ? concat(captured.content, data) : null) : data;
    const after: EntryState = {
      kind: 'file',
      size: (options.mode === 'append' ? (before?.size ?? 0) : 0) + data.byteLength,
      mode: (options.mode === 'replace' ? options.permissions : undefined) ?? captured?.state.mode ?? options.newFilePermissions ?? 0o644,
      sha256: content === null ? null : this.snapshots.sha256(content),
    };
    const change: Change = {
      op: before === null ? 'create' : 'modify',
      before: captured?.state ?? null,
      after,
      reason:
        captured !== null && captured.content === null
          ? tooLarge('file', captured.state.size, this.snapshots.maxFileBytes)
          : before === null && (await this.inner.stat(path))?.kind === 'symlink'
            ? // The file (and any folder on the way) is made where a dangling link points, which the record cannot name: an undo would remove the link instead.
              'it was created through a symbolic link whose target did not exist, so an undo could not tell what to remove'
            : undefined,
    };
    const image = captured?.content ? fileImage(captured.content, captured.state.mode) : null;
    // Made conditional on the version the image was read at (unless the caller holds its own).
    const guarded = options.mode === 'replace' && options.expected === undefined && captured?.version !== undefined;
    return { change, image, ...(guarded ? { guard: captured?.version } : {}) };
  }

  createDirectory(path: RootPath, options: { readonly permissions?: number } = {}): Promise<{ created: boolean }> {
    return this.makeDirectory(this.author(), path, options);
  }

  /**
   * Not recorded: only an undo sets a mode, on a folder it has just made (recorded as that undo's
   * mkdir), and undoing the mkdir removes the folder whatever its mode. A tool that changed the mode
   * of a folder it did not make would need a record of its own.
   */
  setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    return this.inner.setDirectoryPermissions(path, permissions);
  }

  private async makeDirectory(author: ChangeAuthor, path: RootPath, options: { readonly permissions?: number } = {}): Promise<{ created: boolean }> {
    const top = await this.firstMissing(path);
    if (top === null) return this.inner.createDirectory(path, options);
    const mode = top.segments.length === path.segments.length ? (options.permissions ?? 0o755) : 0o755;
    const after: EntryState = { kind: 'directory', size: 0, mode, sha256: null };
    return this.recorded(author, top, { op: 'mkdir', before: null, after }, null, () => this.inner.createDirectory(path, options));
  }

  async removeFile(path: RootPath): Promise<void> {
    const author = this.author();
    for (let attempt = 1; ; attempt += 1) {
      const before = await this.inner.stat(path);
      if (before === null || before.kind === 'directory') return this.inner.removeFile(path);
      if (before.kind !== 'file') {
        const reason = `a ${before.kind === 'symlink' ? 'symbolic link' : 'special file'} cannot be recreated by an undo`;
        return this.recorded(author, path, { op: 'remove', before: stateOf(before, null), after: null, reason }, null, () => this.inner.removeFile(path));
      }
      const captured = await this.snapshots.file(path, before);
      const reason = captured.content === null ? tooLarge('file', captured.state.size, this.snapshots.maxFileBytes) : undefined;
      const image = captured.content ? fileImage(captured.content, captured.state.mode) : null;
      try {
        // Removed only if it is still the version its image was read at: a writer in between makes it read again.
        const expected = captured.version;
        return await this.recorded(author, path, { op: 'remove', before: captured.state, after: null, reason }, image, () => this.inner.removeFile(path, expected === undefined ? {} : { expected }));
      } catch (error) {
        if (attempt >= REPLACE_ATTEMPTS || !(error instanceof DomainError) || error.code !== 'CONFLICT') throw error;
      }
    }
  }

  async removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    const author = this.author();
    const before = await this.inner.stat(path);
    if (before === null || before.kind !== 'directory') return this.inner.removeDirectory(path, work);
    const { image, reason, notRestorable, leftOut } = await this.snapshots.tree(path, before);
    await this.confirm(author, [{ path, change: { op: 'rmdir', reason }, image }]);
    const begun = await this.begin(author, path, { op: 'rmdir', before: stateOf(before, null), after: null, reason, notRestorable }, image);
    try {
      await this.inner.removeDirectory(path, work);
    } catch (error) {
      // A cancelled or failed removal may have removed part of the tree: keep what it removed undoable.
      const now = await this.inner.stat(path).catch(() => before);
      if (now !== null && now.kind === 'directory' && (await this.unchanged(path, image, leftOut))) await this.journal.abort(begun.id);
      else await this.commit(begun, now === null ? null : stateOf(now, null));
      throw error;
    }
    await this.commit(begun);
  }

  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    const author = this.author();
    const moved = await this.inner.stat(from);
    if (moved === null) return this.inner.rename(from, to);
    const replaced = await this.inner.stat(to);
    const state = moved.kind === 'file' ? (await this.snapshots.file(from, moved)).state : stateOf(moved, null);
    const { image, reason } = await this.replacedImage(to, replaced);
    let outcome: 'renamed' | 'cross-device' = 'renamed';
    await this.confirm(author, [{ path: from, change: { op: 'move', toPath: to, reason }, image }]);
    const begun = await this.begin(author, from, { op: 'move', before: state, after: state, toPath: to, reason }, image);
    try {
      outcome = await this.inner.rename(from, to);
    } catch (error) {
      await this.journal.abort(begun.id);
      throw error;
    }
    if (outcome === 'cross-device') await this.journal.abort(begun.id);
    else await this.commit(begun);
    return outcome;
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    const author = this.author();
    const source = await this.inner.stat(from, { followSymlinks: true });
    if (source === null || source.kind !== 'file') return this.inner.copyFile(from, to);
    const replaced = await this.inner.stat(to);
    const after = (await this.snapshots.file(from, source)).state;
    const { image, reason, state: before } = await this.replacedImage(to, replaced);
    return this.recorded(author, from, { op: 'copy', before, after, toPath: to, reason }, image, () => this.inner.copyFile(from, to));
  }

  /** A tree copy's batch: a record per file copied and per folder made, begun together (see journaledCopyBatch). */
  async copyBatch(entries: readonly CopyBatchEntry[], options: { readonly beforeCommit?: () => Promise<void> } = {}): Promise<CopyBatchOutcome> {
    const author = this.author();
    return journaledCopyBatch(
      this.inner,
      {
        plan: (entry) => this.planBatchEntry(entry),
        confirm: (group) => this.confirm(author, group),
        begin: (planned) => this.begin(author, planned.path, planned.change, planned.image),
        commit: (begun) => this.commit(begun),
        abort: (begun) => this.journal.abort(begun.id),
      },
      entries,
      options.beforeCommit,
    );
  }

  /** What copyBatch records for one entry (null: nothing, as copyFile and createDirectory record nothing there). */
  private async planBatchEntry(entry: CopyBatchEntry): Promise<{ path: RootPath; change: Change; image: BeforeImage | null } | null> {
    if (entry.kind === 'directory') {
      if ((await this.inner.stat(entry.to, { followSymlinks: true })) !== null) return null;
      return { path: entry.to, change: { op: 'mkdir', before: null, after: NEW_FOLDER }, image: null };
    }
    const source = await this.inner.stat(entry.from, { followSymlinks: true });
    if (source === null || source.kind !== 'file') return null;
    const replaced = await this.inner.stat(entry.to);
    const after = (await this.snapshots.file(entry.from, source)).state;
    const { image, reason, state: before } = await this.replacedImage(entry.to, replaced);
    return { path: entry.from, change: { op: 'copy', before, after, toPath: entry.to, reason }, image };
  }

  /** Begins the record, runs the change, commits it, or aborts it when the change threw. */
  private async recorded<T>(author: ChangeAuthor, path: RootPath, change: Change, image: BeforeImage | null, action: () => Promise<T>): Promise<T> {
    await this.confirm(author, [{ path, change, image }]);
    const begun = await this.begin(author, path, change, image);
    let result: T;
    try {
      result = await action();
    } catch (error) {
      await this.journal.abort(begun.id);
      throw error;
    }
    await this.commit(begun);
    return result;
  }

  /**
   * The author of the call in progress, read as each write method is entered (before its first
   * await): the context may name a call only while that call is running (see the inbound adapter's
   * AsyncLocalChangeAuthor), and a write is always entered while its call runs.
   */
  private author(): ChangeAuthor {
    return this.authors.current() ?? OUTSIDE_A_CALL;
  }

  /** Asks the call's person before changes this journal could not take back (issue 30.3); undoable ones never are. */
  private confirm(author: ChangeAuthor, planned: readonly PlannedChange[]): Promise<void> {
    // Outside a call (recovery at start-up) there is nobody to ask.
    return author === OUTSIDE_A_CALL ? Promise.resolve() : confirmLoss(this.confirmation, planned);
  }

  private async begin(author: ChangeAuthor, path: RootPath, change: Change, image: BeforeImage | null): Promise<Begun> {
    const reason = reasonNotUndoable(change, image);
    const draft: ChangeDraft = {
      ...author,
      op: change.op,
      root: path.root.name,
      rootKey: this.snapshots.rootKey(path.root),
      path: displayPath(path),
      ...(change.toPath ? { toRoot: change.toPath.root.name, toRootKey: this.snapshots.rootKey(change.toPath.root), toPath: displayPath(change.toPath) } : {}),
      before: change.before,
      after: change.after,
      undoable: reason === undefined,
      ...(reason === undefined ? {} : { reason }),
      ...(reason === undefined && change.notRestorable !== undefined ? { notRestorable: change.notRestorable } : {}),
    };
    // A move's or copy's reason is about what it replaced: the destination is named.
    const shown = { root: draft.toRoot ?? draft.root, path: draft.toPath ?? draft.path };
    const reach: UndoReach =
      reason !== undefined ? { ...shown, undoable: false, reason } : change.notRestorable !== undefined ? { ...shown, undoable: 'partly', reason: change.notRestorable } : { ...shown, undoable: true };
    try {
      return { id: await this.journal.begin(draft, reason === undefined ? image : null), author, reach };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      // The journal's own failure (its disk full, say): the change is not made, and the client is told why without a host path.
      throw new DomainError('IO_ERROR', `the change journal could not record this change, so it was not made: ${draft.path}${inRoot(draft.root)}`, {
        root: draft.root,
        attemptedPath: draft.path,
        cause: String((error as { code?: unknown } | undefined)?.code ?? error),
      });
    }
  }

  private async commit(begun: Begun, after?: EntryState | null): Promise<void> {
    await this.journal.commit(begun.id, after);
    if (begun.author !== OUTSIDE_A_CALL) this.authors.committed(begun.author, begun.reach);
    await this.bounds.enforce();
  }

  /**
   * The shallowest missing folder on the way to `path`, or null when `path` exists. Existence is
   * monotone along the path, so a binary search finds it in O(log depth) lookups (a 1,000-deep
   * mkdir -p must not cost a million component walks).
   */
  private async firstMissing(path: RootPath): Promise<RootPath | null> {
    const prefix = (depth: number): RootPath => ({ root: path.root, segments: path.segments.slice(0, depth) });
    const exists = async (depth: number) => (await this.inner.stat(prefix(depth), { followSymlinks: true })) !== null;
    if (await exists(path.segments.length)) return null;
    let present = 0;
    let missing = path.segments.length;
    if (missing > 1 && (await exists(missing - 1))) return prefix(missing);
    while (missing - present > 1) {
      const middle = (present + missing) >> 1;
      if (await exists(middle)) present = middle;
      else missing = middle;
    }
    return prefix(missing);
  }

  /** What a move or copy replaces at its destination (a file), kept so an undo can put it back. */
  private async replacedImage(to: RootPath, replaced: EntryStat | null): Promise<{ image: BeforeImage | null; reason?: string; state: EntryState | null }> {
    if (replaced === null) return { image: null, state: null };
    if (replaced.kind === 'directory') return { image: null, state: stateOf(replaced, null) };
    if (replaced.kind !== 'file') return { image: null, reason: 'it replaced a symbolic link or special file, which an undo cannot recreate', state: stateOf(replaced, null) };
    const captured = await this.snapshots.file(to, replaced);
    if (captured.content === null) return { image: null, reason: tooLarge('file', captured.state.size, this.snapshots.maxFileBytes), state: captured.state };
    return { image: fileImage(captured.content, captured.state.mode), state: captured.state };
  }

  /** Whether a folder still holds every entry of its image, and the `leftOut` it did not keep (a removal that failed before removing anything). */
  private async unchanged(path: RootPath, image: BeforeImage | null, leftOut: number): Promise<boolean> {
    if (image === null) return false;
    let count = 0;
    for await (const batch of this.inner.scanTree(path, { select: () => true })) count += batch.selected.length;
    return count === image.entries.length - 1 + leftOut;
  }
}

function fileImage(content: Uint8Array, mode: number): BeforeImage {
  return { entries: [{ relativePath: '', kind: 'file', mode, content }] };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.byteLength + b.byteLength);
  joined.set(a, 0);
  joined.set(b, a.byteLength);
  return joined;
}
