import { errors } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { FileSystemPort, ReadableFile } from '../ports/file-system.port.js';
import type { LineMatcher, RegexEngine } from '../ports/regex-engine.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { namingArgument, namingRoot } from '../search/argument-errors.js';
import { compileGlob, type PathPredicate } from '../search/glob-pattern.js';
import { readLines } from '../search/line-reader.js';
import { MATCH_TEXT_BUDGET, MAX_CONTEXT_LINES, returnedLine } from '../search/match-text.js';
import { assertPatternLength } from '../search/pattern-length.js';
import { SearchLimits } from '../search/search-limits.js';
import { statSearchStart } from '../search/start-point.js';
import type { Settings } from '../settings.js';
import { walkTree } from '../tree-walker.js';
import { BINARY_SNIFF_BYTES, looksBinary } from './file-text.js';
import type { RootAccess } from './root-access.js';

export interface GrepInput {
  readonly root: string;
  readonly pattern: string;
  readonly path?: string;
  readonly glob_filter?: string;
  readonly case_insensitive?: boolean;
  readonly context_lines?: number;
  readonly max_results?: number;
  readonly timeout_seconds?: number;
  readonly max_depth?: number;
}

export interface GrepMatch {
  /** Relative to the root, so it can be passed straight to another tool. */
  readonly file: string;
  readonly line_number: number;
  readonly line_content: string;
  readonly context_before: string[];
  readonly context_after: string[];
}

export interface GrepResult {
  readonly matches: GrepMatch[];
  readonly total_matches: number;
  readonly files_searched: number;
  readonly truncated: boolean;
  readonly timed_out: boolean;
}

/** Lines (or characters) scanned between two looks at the clock inside one file. */
const LINES_PER_DEADLINE_CHECK = 1000;
const CHARS_PER_DEADLINE_CHECK = 4 * 1024 * 1024;

/** FR-016: regex search over file contents below a directory of a root. */
export class Grep {
  constructor(
    private readonly fs: FileSystemPort,
    private readonly clock: Clock,
    private readonly regex: RegexEngine,
    private readonly settings: Settings,
    private readonly access: RootAccess,
  ) {}

  async execute(input: GrepInput): Promise<GrepResult> {
    const start = this.access.path('grep', input.root, input.path ?? '.');
    const { limits, matcher, filter, contextLines } = namingRoot(start.root.name, () => this.parseArguments(input));
    const search = new ContentSearch(this.fs, matcher, limits, contextLines);

    const startStat = await statSearchStart(this.fs, start);
    if (startStat.kind === 'file') {
      // A single named file is searched even when a glob_filter would exclude its name.
      await search.searchFile(start);
    } else if (startStat.kind === 'directory') {
      for await (const entry of walkTree(this.fs, start, { maxDepth: limits.maxDepth })) {
        if (limits.expired()) {
          search.timedOut = true;
          break;
        }
        // Symlinks are not followed and special files (FIFOs...) could block a read: only regular files are searched.
        if (entry.stat.kind !== 'file' || !filter(entry.relativePath)) continue;
        if (!(await search.searchFile(entry.path))) break;
      }
    } else {
      throw errors.notAFile(start.root.name, displayPath(start));
    }
    return search.result();
  }

  private parseArguments(input: GrepInput) {
    if (input.pattern === '') throw errors.invalidArgument('pattern must not be empty');
    const contextLines = input.context_lines ?? 0;
    if (!Number.isInteger(contextLines) || contextLines < 0) {
      throw errors.invalidArgument(`context_lines must be a non-negative integer, got ${contextLines}`);
    }
    return {
      contextLines: Math.min(contextLines, MAX_CONTEXT_LINES),
      limits: SearchLimits.from(this.settings.search, this.clock, input),
      matcher: namingArgument('pattern', () => {
        assertPatternLength(input.pattern);
        return this.regex.compile(input.pattern, { caseInsensitive: input.case_insensitive ?? false });
      }),
      filter: input.glob_filter ? fileFilter(input.glob_filter, this.regex) : () => true,
    };
  }
}

/** `*.go` is matched against the file name, `src/**\/*.go` against the path below the search directory. */
function fileFilter(glob: string, engine: RegexEngine): PathPredicate {
  const matches = namingArgument('glob_filter', () => compileGlob(glob, engine));
  if (glob.includes('/')) return matches;
  return (relativePath) => matches(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

class ContentSearch {
  readonly matches: GrepMatch[] = [];
  filesSearched = 0;
  truncated = false;
  timedOut = false;
  private textChars = 0;

  constructor(
    private readonly fs: FileSystemPort,
    private readonly matcher: LineMatcher,
    private readonly limits: SearchLimits,
    private readonly contextLines: number,
  ) {}

  /** Searches one file; false once the search must stop (result limit or deadline). */
  async searchFile(path: RootPath): Promise<boolean> {
    let file: ReadableFile;
    try {
      file = await this.fs.openFile(path);
    } catch (error) {
      // Gone between listing and opening: there is nothing left to search.
      if ((error as { code?: unknown } | null)?.code === 'NOT_FOUND') return true;
      throw error;
    }
    try {
      const head = await file.read(0, BINARY_SNIFF_BYTES);
      if (looksBinary(head)) return true;
      this.filesSearched += 1;
      await this.scan(readLines(file, head), displayPath(path));
    } finally {
      await file.close();
    }
    return !this.truncated && !this.timedOut;
  }

  private async scan(lines: AsyncGenerator<string>, shownPath: string): Promise<void> {
    const before: string[] = [];
    let awaitingContext: GrepMatch[] = [];
    let lineNumber = 0;
    let linesSinceCheck = 0;
    let charsSinceCheck = 0;
    for await (const line of lines) {
      lineNumber += 1;
      linesSinceCheck += 1;
      charsSinceCheck += line.length;
      if (linesSinceCheck >= LINES_PER_DEADLINE_CHECK || charsSinceCheck >= CHARS_PER_DEADLINE_CHECK) {
        linesSinceCheck = 0;
        charsSinceCheck = 0;
        if (this.limits.expired()) {
          this.timedOut = true;
          return;
        }
      }
      let cut: string | undefined;
      const shown = () => (cut ??= returnedLine(line));
      if (awaitingContext.length > 0) {
        if (!this.spend(shown().length * awaitingContext.length)) return;
        for (const match of awaitingContext) match.context_after.push(shown());
        awaitingContext = awaitingContext.filter((match) => match.context_after.length < this.contextLines);
      }
      if (this.truncated) {
        // Past the limit, keep reading only to finish the context of the last matches.
        if (awaitingContext.length === 0) return;
        continue;
      }
      if (this.matcher.test(line)) {
        if (this.matches.length >= this.limits.maxResults) {
          this.truncated = true;
          if (awaitingContext.length === 0) return;
        } else {
          if (!this.spend(before.reduce((chars, kept) => chars + kept.length, shown().length))) return;
          const match: GrepMatch = {
            file: shownPath,
            line_number: lineNumber,
            line_content: shown(),
            context_before: [...before],
            context_after: [],
          };
          this.matches.push(match);
          if (this.contextLines > 0) awaitingContext.push(match);
        }
      }
      if (this.contextLines > 0) {
        before.push(shown());
        if (before.length > this.contextLines) before.shift();
      }
    }
  }

  /** Counts returned text against MATCH_TEXT_BUDGET; false (and truncated: the search ends) once it would overflow. */
  private spend(chars: number): boolean {
    if (this.textChars + chars > MATCH_TEXT_BUDGET) {
      this.truncated = true;
      return false;
    }
    this.textChars += chars;
    return true;
  }

  result(): GrepResult {
    return {
      matches: this.matches,
      total_matches: this.matches.length,
      files_searched: this.filesSearched,
      truncated: this.truncated,
      timed_out: this.timedOut,
    };
  }
}
