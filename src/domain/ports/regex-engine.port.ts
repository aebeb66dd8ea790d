/** A compiled pattern with linear-time matching (RE2 semantics). */
export interface LineMatcher {
  test(line: string): boolean;
}

export interface RegexEngine {
  /** Throws INVALID_ARGUMENT whose message is the parse error alone; the caller names the parameter and the root. */
  compile(pattern: string, options: { caseInsensitive: boolean }): LineMatcher;
}
