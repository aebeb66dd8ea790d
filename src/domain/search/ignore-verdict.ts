import type { Ignore, TestResult } from 'ignore';

/** The part of an `ignore` instance that judges one path by its patterns alone (the package's RuleManager). */
interface PatternTester {
  test(path: string, mode: string): TestResult;
}

/** The package's name for the mode of its patterns' own regular expressions (its MODE_IGNORE). */
const PATTERN_MODE = 'regex';

/**
 * `rules`' verdict on `path` from its patterns alone: the last pattern that matches the path decides; its
 * parent folders are not looked at (the walk judged those with every rule file, see IgnoreRules.judge), and
 * nothing is cached. This is the package's own matching, reached through its rule manager, since the public
 * test() caches every path it is asked about; when an update of the package no longer has that shape it
 * falls back to test(), which is slower and, for a path whose parents it does not ignore, the same.
 * The test "patternVerdict agrees with ignore's test()" holds the two together.
 */
export function patternVerdict(rules: Ignore, path: string): TestResult {
  const manager = (rules as unknown as { _rules?: Partial<PatternTester> })._rules;
  return typeof manager?.test === 'function' ? manager.test(path, PATTERN_MODE) : rules.test(path);
}
