import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeAuthor, ChangeAuthorContext } from '../../../domain/ports/change-journal.port.js';

/**
 * Who makes the change being journaled: the principal, session and tool of the tool call in
 * progress, carried along the call's async chain. Bound only while the journal is on, so a server
 * without it pays nothing for the store.
 */
export class AsyncLocalChangeAuthor implements ChangeAuthorContext {
  private readonly storage = new AsyncLocalStorage<ChangeAuthor>();

  current(): ChangeAuthor | undefined {
    return this.storage.getStore();
  }

  run<T>(author: ChangeAuthor, action: () => T): T {
    return this.storage.run(author, action);
  }
}
