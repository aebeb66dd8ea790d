import { DomainError } from './errors.js';

/**
 * What a long use case may learn about its caller, in plain terms: whether the caller has gone
 * (its cancellation) and where to report how far the work has come. The MCP adapter builds one
 * from the request's abort signal and progress token; the domain sees no MCP types.
 */
export interface WorkContext {
  /** Set once the caller no longer wants the result; loops look at it and stop. */
  readonly signal?: { readonly aborted: boolean };
  /** Work done so far (files scanned, bytes hashed, entries copied...), never decreasing; `total` when known. */
  progress?(done: number, total?: number, message?: string): void;
}

/** The caller cancelled the call: the work stopped and nothing more is done for it. */
export function cancelled(): DomainError {
  return new DomainError('CANCELLED', 'the call was cancelled by the client');
}

/** Throws CANCELLED once the caller has gone; cheap enough to call on every loop turn. */
export function throwIfCancelled(work: WorkContext | undefined): void {
  if (work?.signal?.aborted) throw cancelled();
}

export function isCancelled(work: WorkContext | undefined): boolean {
  return work?.signal?.aborted === true;
}
