import type { ChangeRecord, EntryState } from '../ports/change-journal.port.js';

/** A change as the tools show it (snake_case, every record field). */
export interface ChangeView {
  readonly id: string;
  readonly time: string;
  readonly principal: string;
  readonly session: string;
  readonly tool: string;
  readonly op: ChangeRecord['op'];
  readonly root: string;
  readonly path: string;
  readonly to_root?: string;
  readonly to_path?: string;
  readonly before: StateView | null;
  readonly after: StateView | null;
  readonly undoable: boolean;
  readonly reason?: string;
  readonly not_restorable?: string;
  readonly undone_by?: string;
  readonly diff?: string;
  /** Why the diff asked for is not shown: too large to make or to fit max_result_bytes, or no read tool on a root it names. */
  readonly diff_omitted?: string;
}

export interface StateView {
  readonly kind: EntryState['kind'];
  readonly size: number;
  /** Octal permission bits, e.g. "0644". */
  readonly mode: string;
  /** null for a folder, or where the caller may not use hash_file (issue 33). */
  readonly sha256: string | null;
}

/** The change as shown; `hashes` false hides the versions' sha256 from a caller without hash_file on its roots. */
export function viewOf(record: ChangeRecord, hashes: boolean): ChangeView {
  return {
    id: record.id,
    time: record.time,
    principal: record.principal,
    session: record.session,
    tool: record.tool,
    op: record.op,
    root: record.root,
    path: record.path,
    ...(record.toRoot === undefined ? {} : { to_root: record.toRoot, to_path: record.toPath }),
    before: stateView(record.before, hashes),
    after: stateView(record.after, hashes),
    undoable: record.undoable && record.undoneBy === undefined,
    ...(record.undoneBy !== undefined ? { reason: `already undone (by session ${record.undoneBy})`, undone_by: record.undoneBy } : record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.notRestorable === undefined || !record.undoable ? {} : { not_restorable: record.notRestorable }),
  };
}

function stateView(state: EntryState | null, hashes: boolean): StateView | null {
  return state === null ? null : { kind: state.kind, size: state.size, mode: `0${state.mode.toString(8).padStart(3, '0')}`, sha256: hashes ? state.sha256 : null };
}
