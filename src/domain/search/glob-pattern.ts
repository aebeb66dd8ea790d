import type { RegexEngine } from '../ports/regex-engine.port.js';
import { globEnding, globToRegex } from './glob-to-regex.js';
import { assertPatternLength } from './pattern-length.js';

export interface PathPredicate {
  (relativePath: string): boolean;
  /** When set: every path the predicate accepts has a last segment ending with this (it holds no '/'). */
  readonly nameEnding?: string;
  /** When set: the predicate's answer on a path is this one's on the path's last segment (no path to cut or read). */
  readonly byName?: (name: string) => boolean;
}

/**
 * A glob (see globToRegex for the syntax) matched against a whole '/'-separated relative path
 * (never Windows separators, whatever the host), case-sensitively, by the linear-time engine.
 * A bad or overlong glob is INVALID_ARGUMENT with the reason alone: the caller names the
 * parameter (namingArgument).
 */
export function compileGlob(glob: string, engine: RegexEngine): PathPredicate {
  assertPatternLength(glob);
  const matcher = engine.compile(globToRegex(glob), { caseInsensitive: false });
  const ending = globEnding(glob);
  if (ending === null) return (relativePath) => matcher.test(relativePath);
  const { suffix } = ending;
  // Fast path: most paths of a tree fail the literal ending; those never reach the regex.
  const predicate = ((): PathPredicate => {
    switch (ending.decides) {
      case 'any-depth':
        return (relativePath) => relativePath.endsWith(suffix);
      case 'top-level':
        return (relativePath) => relativePath.endsWith(suffix) && !relativePath.includes('/');
      default:
        return (relativePath) => relativePath.endsWith(suffix) && matcher.test(relativePath);
    }
  })();
  // An ending with no '/' is all in the last segment: a scan can refuse a name without making its path.
  if (suffix.includes('/')) return predicate;
  const byName = ending.decides === 'any-depth' ? { byName: (name: string) => name.endsWith(suffix) } : {};
  return Object.assign(predicate, { nameEnding: suffix, ...byName });
}
