import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeAuthor, ChangeAuthorContext } from '../../../domain/ports/change-journal.port.js';

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

  current(): ChangeAuthor | undefined {
    return this.storage.getStore() ?? this.solo;
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
