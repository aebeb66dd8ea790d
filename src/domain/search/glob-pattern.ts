import picomatch from 'picomatch';
import { errors } from '../errors.js';

export type PathPredicate = (relativePath: string) => boolean;

/**
 * A glob with doublestar semantics over '/'-separated relative paths (never Windows
 * separators, whatever the host): `*` stays within one segment, `**` spans any number of
 * them (zero included, so `**\/*.go` also matches `a.go`), and dot files match like any
 * other name. Unbalanced brackets are an error rather than silently literal, so a typo does
 * not quietly match nothing. A bad pattern is INVALID_ARGUMENT with picomatch's reason alone:
 * the caller names the parameter (namingArgument).
 */
export function compileGlob(pattern: string): PathPredicate {
  try {
    return picomatch(pattern, { dot: true, strictBrackets: true, windows: false });
  } catch (error) {
    const message = (error as { message?: unknown } | null)?.message;
    throw errors.invalidArgument(typeof message === 'string' ? message : String(error));
  }
}
