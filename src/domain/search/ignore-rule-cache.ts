import ignore, { type Ignore } from 'ignore';
import type { FileVersion } from '../ports/file-system.port.js';
import type { Logger } from '../ports/logger.port.js';

/**
 * Security (issue 33): a rule file is compiled on the event loop and every path of a walk is matched
 * against each of its patterns, so a planted one must cost little however it is written. A rule file
 * larger than this is not read at all (real ones are a few KiB; git's own tree has one of 4 KiB).
 */
export const MAX_IGNORE_FILE_BYTES = 64 * 1024;
/** A pattern line longer than this is skipped: compiling `*a` x 2,000 took ~350 ms, and 263 of them ~9 s. */
export const MAX_IGNORE_PATTERN_CHARS = 512;
/** A pattern with more wildcards (`*`, `?`, `[`) than this is skipped: each one is a backtracking point of its regex. */
export const MAX_IGNORE_PATTERN_WILDCARDS = 16;
/** Compiled rule files kept. */
export const MAX_CACHED_RULE_FILES = 512;

/** A rule file as read: its text, and the adapter's identity of the version read (when it gives one). */
export interface RuleFileText {
  readonly text: string;
  readonly version?: FileVersion;
  /** For the warning only: the file's name in its root ('' when unknown). */
  readonly shown: string;
}

/**
 * Compiles ignore rule files, each once per version of the file. The `ignore` package compiles a
 * pattern's regex on its first use, so a kept instance also keeps its compiled regexes.
 *
 * Cache: keyed by the adapter's FileVersion of the rule file (dev+ino+size+mtime+ctime on disk) and the
 * variant compiled (whole / unanchored lines only), at most MAX_CACHED_RULE_FILES entries, least
 * recently used dropped first. A file the adapter gives no version for is compiled afresh each time.
 */
export class IgnoreRuleCache {
  private readonly compiled = new Map<string, Ignore>();
  /** How many times a rule file was compiled (for tests and the bench). */
  compilations = 0;

  constructor(private readonly logger?: Logger) {}

  /** The rules of `file`, keeping only the lines `keep` accepts (all when absent; `variant` names the filter). */
  rules(file: RuleFileText, variant = '', keep?: (line: string) => boolean): Ignore {
    const key = file.version === undefined ? undefined : `${variant}|${file.version}`;
    const cached = key === undefined ? undefined : this.compiled.get(key);
    if (cached !== undefined) {
      this.compiled.delete(key!);
      this.compiled.set(key!, cached);
      return cached;
    }
    const rules = this.compile(file, keep);
    if (key !== undefined) {
      this.compiled.set(key, rules);
      if (this.compiled.size > MAX_CACHED_RULE_FILES) this.compiled.delete(this.compiled.keys().next().value!);
    }
    return rules;
  }

  /** A rule file that was too large to be read: left out, with a warning an operator can act on. */
  tooLarge(shown: string, size: number): void {
    this.logger?.warn('ignore file skipped: larger than the limit', { file: shown, size, limit: MAX_IGNORE_FILE_BYTES });
  }

  private compile(file: RuleFileText, keep?: (line: string) => boolean): Ignore {
    this.compilations += 1;
    let skipped = 0;
    const lines = file.text.split(/\r?\n/).filter((line) => {
      if (keep !== undefined && !keep(line)) return false;
      if (isBounded(line)) return true;
      skipped += 1;
      return false;
    });
    if (skipped > 0) {
      this.logger?.warn('ignore file patterns skipped: too long or too many wildcards', {
        file: file.shown,
        skipped,
        maxChars: MAX_IGNORE_PATTERN_CHARS,
        maxWildcards: MAX_IGNORE_PATTERN_WILDCARDS,
      });
    }
    return ignore().add(lines);
  }
}

/** Whether a pattern line is within the limits on its length and wildcards. */
export function isBounded(line: string): boolean {
  if (line.length > MAX_IGNORE_PATTERN_CHARS) return false;
  let wildcards = 0;
  for (const char of line) if ((char === '*' || char === '?' || char === '[') && ++wildcards > MAX_IGNORE_PATTERN_WILDCARDS) return false;
  return true;
}
