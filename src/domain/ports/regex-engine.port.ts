/** A compiled pattern with linear-time matching (RE2 semantics). */
export interface LineMatcher {
  test(line: string): boolean;
  /**
   * A cheap look at many lines at once: `text` is lines joined by '\n' (no '\r', no line cut short).
   * false guarantees that test() is false for every one of those lines; true says only "look line by
   * line". Absent when the engine cannot promise that for this pattern.
   */
  readonly mayMatchSomeLine?: (text: string) => boolean;
  /**
   * mayMatchSomeLine over the same text as UTF-8 bytes (no byte order mark), with the same promise,
   * so a file read as bytes need not be decoded for a look that mostly says "no match here".
   */
  readonly mayMatchSomeLineBytes?: (bytes: Uint8Array) => boolean;
  /**
   * Over the same bytes as mayMatchSomeLineBytes: the numbers (1-based, ascending) of the lines that
   * may match; test() is false for every other line, so a caller may test these alone.
   */
  readonly linesMayMatchBytes?: (bytes: Uint8Array) => number[];
}

export interface RegexEngine {
  /** Throws INVALID_ARGUMENT whose message is the parse error alone; the caller names the parameter and the root. */
  compile(pattern: string, options: { caseInsensitive: boolean }): LineMatcher;
}
