import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeAuthor, ChangeAuthorContext, UndoReach } from '../../../../domain/ports/change-journal.port.js';

/** The changes one call made, as far as an undo can take them back; at most MAX_KEPT of the others are named. */
export interface CallUndoReach {
  readonly changes: number;
  /** Changes an undo cannot take back at all. */
  readonly none: number;
  /** Changes an undo cannot take back, or not whole, the first MAX_KEPT of them. */
  readonly notWhole: readonly UndoReach[];
  readonly notWholeCount: number;
}

const MAX_KEPT = 3;

/**
 * Who makes the change being journaled: the principal, session and tool of the tool call in
 * progress. Bound only while the journal is on.
 *
 * Most calls run alone (an agent waits for each answer), and AsyncLocalStorage turns on promise
 * hooks at its first run, which then cost every promise and every callback of every call: with
 * the journal on, write_file took about 0.4 ms longer for them alone (issue 20's bench bar). So
 * one call at a time, the *solo* call, runs outside any store and is named by a plain field; a
 * call that starts while the solo call runs gets a store of its own. `current()` is the store's
 * author where there is one, else the solo call's. The journal reads it as each write method is
 * entered, which is always while that write's call is running.
 *
 * Security: only calls of the unrestricted principal (stdio, `auth.mode: none`) may be the solo
 * call. A restricted principal's call always has its own store, which its whole async chain
 * carries, so its changes can never be named after another call, nor another call's after it.
 */
export class AsyncLocalChangeAuthor implements ChangeAuthorContext {
  private readonly storage = new AsyncLocalStorage<ChangeAuthor>();
  private solo: ChangeAuthor | undefined;
  /** Keyed by the author object of a call (run's argument), so a finished call's tally goes with it. */
  private readonly reaches = new WeakMap<ChangeAuthor, { changes: number; none: number; notWhole: UndoReach[]; notWholeCount: number }>();

  current(): ChangeAuthor | undefined {
    return this.storage.getStore() ?? this.solo;
  }

  committed(author: ChangeAuthor, reach: UndoReach): void {
    let tally = this.reaches.get(author);
    if (tally === undefined) this.reaches.set(author, (tally = { changes: 0, none: 0, notWhole: [], notWholeCount: 0 }));
    tally.changes += 1;
    if (reach.undoable === true) return;
    if (reach.undoable === false) tally.none += 1;
    tally.notWholeCount += 1;
    if (tally.notWhole.length < MAX_KEPT) tally.notWhole.push(reach);
  }

  /** What the call of `author` changed, as far as an undo can take it back. */
  reachOf(author: ChangeAuthor): CallUndoReach {
    return this.reaches.get(author) ?? { changes: 0, none: 0, notWhole: [], notWholeCount: 0 };
  }

  /** Runs a call's `action` as `author`; `unrestricted`: the call's principal is the unrestricted one. */
  run<T>(author: ChangeAuthor, unrestricted: boolean, action: () => Promise<T>): Promise<T> {
    // (Nor inside another call's store, where current() would give that store's author.)
    if (!unrestricted || this.solo !== undefined || this.storage.getStore() !== undefined) return this.storage.run(author, action);
    this.solo = author;
    const release = () => {
      this.solo = undefined;
    };
    try {
      // Released when the call's action settles: every write it made was entered before that.
      return action().finally(release);
    } catch (error) {
      release();
      throw error;
    }
  }
}
