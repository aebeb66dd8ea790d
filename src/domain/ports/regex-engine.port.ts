/** A compiled pattern with linear-time matching (RE2 semantics). */
export interface LineMatcher {
  test(line: string): boolean;
}

export interface RegexEngine {
  /** Throws INVALID_ARGUMENT `invalid pattern: <reason>` when the pattern does not parse. */
  compile(pattern: string, options: { caseInsensitive: boolean }): LineMatcher;
}
