/** A compiled pattern with linear-time matching (RE2 semantics). */
export interface LineMatcher {
  test(line: string): boolean;
  /**
   * A cheap look at many lines at once: `text` is lines joined by '\n' (no '\r', no line cut short).
   * false guarantees that test() is false for every one of those lines; true says only "look line by
   * line". Absent when the engine cannot promise that for this pattern.
   */
  readonly mayMatchSomeLine?: (text: string) => boolean;
}

export interface RegexEngine {
  /** Throws INVALID_ARGUMENT whose message is the parse error alone; the caller names the parameter and the root. */
  compile(pattern: string, options: { caseInsensitive: boolean }): LineMatcher;
}
