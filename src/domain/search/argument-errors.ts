import { DomainError, inRoot } from '../errors.js';

/**
 * NFR-011: the argument checkers (search limits, the glob compiler, the regex engine) know no
 * root, so a use case runs them through this to name the root in the INVALID_ARGUMENT they throw.
 */
export function namingRoot<T>(rootName: string, check: () => T): T {
  return rewordingInvalidArgument(check, (message) => message + inRoot(rootName), rootName);
}

/**
 * A pattern compiler throws INVALID_ARGUMENT with the bare parse error; this names the parameter
 * the pattern came from, so a client knows which one to fix: `invalid glob_filter: <reason>`.
 */
export function namingArgument<T>(argument: string, compile: () => T): T {
  return rewordingInvalidArgument(compile, (reason) => `invalid ${argument}: ${reason}`);
}

function rewordingInvalidArgument<T>(check: () => T, reword: (message: string) => string, rootName?: string): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'INVALID_ARGUMENT') {
      const logDetails = rootName === undefined ? error.logDetails : { ...error.logDetails, root: rootName };
      throw new DomainError(error.code, reword(error.message), logDetails);
    }
    throw error;
  }
}
