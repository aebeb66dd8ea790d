import { DomainError, inRoot } from '../errors.js';

/**
 * NFR-011: the argument checkers (search limits, the glob compiler, the regex engine) know no
 * root, so a use case runs them through this to name the root in the INVALID_ARGUMENT they throw.
 */
export function namingRoot<T>(rootName: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'INVALID_ARGUMENT') {
      throw new DomainError(error.code, error.message + inRoot(rootName), { ...error.logDetails, root: rootName });
    }
    throw error;
  }
}
