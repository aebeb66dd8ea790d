import type { Root } from '../roots.js';

/**
 * Where the roots come from: the operator (config file or DIR arguments, fixed for the life of the
 * process) or the client (stdio without DIR: the folders it shares, replaced when it says they
 * changed). `current()` returns the same array until the set changes, so a caller may key a cache
 * on it; an empty set means the client shared no folders (NO_ROOTS).
 */
export interface RootsSource {
  current(): readonly Root[];
}
