import { errors } from '../errors.js';
import type { EntryKind } from '../ports/file-system.port.js';
import type { RegexEngine } from '../ports/regex-engine.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { namingArgument, namingRoot } from '../search/argument-errors.js';
import { compileGlob, type PathPredicate } from '../search/glob-pattern.js';
import { ignoreMode, ignoreRulesFor, type IgnoreRules } from '../search/ignore-rules.js';
import { IndexedLookup } from '../search/index-freshness.js';
import { trigramQueryOf } from '../search/regex-trigrams.js';
import { MAX_CONTEXT_LINES } from '../search/match-text.js';
import { assertPatternLength } from '../search/pattern-length.js';
import { ENTRIES_PER_DEADLINE_CHECK, SearchLimits } from '../search/search-limits.js';
import { statSearchStart } from '../search/start-point.js';
import { ContentSearch, type GrepResult, type PendingFile, RESULT_ENVELOPE_BYTES } from './content-search.js';
import { TreeSearch } from './tree-search.js';
import { throwIfCancelled, type WorkContext } from '../work-context.js';

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
  readonly ignore?: string;
}

export type { GrepMatch } from '../search/file-search.js';

export type { GrepResult } from './content-search.js';

/**
 * Files searched at once. Each file costs a dozen small syscalls (the confined walk, open, read,
 * close) that wait on libuv's thread pool, 4 threads by default, and alternates them with regex
 * work on the main thread: 8 keeps the pool busy while the regex runs, without holding many files open.
 */
const FILES_IN_FLIGHT = 8;

/** Files up to this size come read by the tree scan; a larger one is opened and read in chunks. */
const READ_AHEAD_MAX_BYTES = 256 * 1024;

/** FR-016: regex search over file contents below a directory of a root. */
export class Grep extends TreeSearch {
  async execute(input: GrepInput, work?: WorkContext): Promise<GrepResult> {
    return this.asSearch(() => this.searchTree(input, work));
  }

  private async searchTree(input: GrepInput, work?: WorkContext): Promise<GrepResult> {
    const start = this.access.path('grep', input.root, input.path ?? '.');
    const { limits, matcher, filter, contextLines, ignore } = namingRoot(start.root.name, () => this.parseArguments(input));
    const search = new ContentSearch(this.fs, { matcher, contextLines, expired: () => limits.expired() }, limits.maxResults, this.settings.maxResultBytes - RESULT_ENVELOPE_BYTES, work);

    const startStat = await statSearchStart(this.fs, start);
    let rules: IgnoreRules | undefined;
    if (startStat.kind === 'file') {
      // A single named file is searched even when a glob_filter would exclude its name.
      await search.consume(search.start(start));
    } else if (startStat.kind === 'directory') {
      // Files are searched ahead, but their results are taken strictly in walk order.
      const inFlight: PendingFile[] = [];
      // Symlinks are not followed and special files (FIFOs...) could block a read: only regular files are searched.
      let passedOver = 0;
      const everyFile = input.glob_filter === undefined || input.glob_filter === '';
      const select = (relativePath: string, kind: EntryKind): boolean => {
        if (search.timedOut) return false;
        if (kind === 'file' && filter(relativePath)) return true;
        // The deadline is looked at before each file searched (below) and every so many entries passed
        // over, so a large tree with nothing to search still stops at it.
        if (++passedOver % ENTRIES_PER_DEADLINE_CHECK === 0 && limits.expired()) search.timedOut = true;
        return false;
      };
      rules = await ignoreRulesFor(this.fs, start, ignore, this.ignoreCache);
      throwIfCancelled(work);
      const indexed = this.indexedLookup(start, input);
      const startPrefix = start.segments.length === 0 ? '' : `${start.segments.join('/')}/`;
      try {
        // With an index, only the files it cannot vouch for are read: none is read ahead.
        const readContents = indexed === undefined ? { maxBytes: READ_AHEAD_MAX_BYTES } : undefined;
        const options = { maxDepth: limits.maxDepth, select, readContents, ...rules?.scanOptions() };
        // With an index, the walk itself may come from the root's snapshot: only candidates are opened.
        // A replay may take the index's and the rules' verdicts from what it kept per entry (see ReplayJudges).
        const judges = indexed && { index: indexed, everyFile, ignore: rules && { key: rules.key, passOver: rules.passOver } };
        // A file the index vouches holds no match counts as searched in walk order: now, or right after the last file searched ahead of it.
        const countNothing = (files: number) => {
          if (inFlight.length === 0) search.countNothing(files);
          else inFlight[inFlight.length - 1]!.nothingAfter += files;
        };
        scan: for await (const batch of await this.walk(start, options, ignore, indexed !== undefined, judges)) {
          throwIfCancelled(work);
          const nothing = batch.nothing;
          for (let k = 0; k < batch.selected.length; k += 1) {
            const entry = batch.selected[k]!;
            if (limits.expired()) {
              search.timedOut = true;
              break scan;
            }
            if (nothing !== undefined && nothing[k]! > 0) countNothing(nothing[k]!);
            if (entry.stat.kind !== 'file') continue;
            // The stamp the walk just took decides: a file the index cannot vouch for is read as a scan reads it.
            const verdict = entry.verdict ?? indexed?.verdict(entry.rootPath ?? startPrefix + entry.relativePath, entry.stat) ?? 'search';
            if (verdict === 'binary') continue;
            if (verdict === 'no-match') {
              countNothing(1);
              continue;
            }
            const path = descendantPath(start, entry.relativePath);
            const readAhead = entry.contents === undefined ? undefined : { stat: entry.stat, contents: entry.contents };
            inFlight.push(search.start(path, readAhead));
            if (inFlight.length >= FILES_IN_FLIGHT) await search.consume(inFlight.shift()!);
            if (search.stopped) break scan;
          }
          const last = nothing?.[batch.selected.length] ?? 0;
          if (last > 0) {
            if (limits.expired()) {
              search.timedOut = true;
              break;
            }
            countNothing(last);
          }
          if (search.timedOut) break;
        }
        // Files started before the deadline are still used, as a file being searched at the deadline always was.
        while (inFlight.length > 0 && !search.stopped) await search.consume(inFlight.shift()!);
      } finally {
        // Files searched ahead of a stop are not used; wait for them so that every file is closed on return.
        search.abandon();
        await Promise.allSettled(inFlight.map((pending) => pending.result));
        // The next grep finds them indexed: the index learns what this one had to read.
        if (indexed !== undefined) this.indexes?.refresh(start.root, indexed.unvouched);
      }
    } else {
      throw errors.notAFile(start.root.name, displayPath(start));
    }
    throwIfCancelled(work);
    const result = search.result();
    if (rules === undefined) return result;
    // A search stopped at a file (its limit or its deadline) counts what was passed over before it only.
    const stop = search.stoppedAt?.segments.slice(start.segments.length).join('/');
    return { ...result, ignored: stop === undefined ? rules.ignored : rules.ignoredBefore(stop) };
  }

  /** The root's index as a lookup for this pattern; undefined (scan) without one or when the pattern requires no trigram. */
  private indexedLookup(start: RootPath, input: GrepInput): IndexedLookup | undefined {
    const index = this.indexes?.ready(start.root);
    if (index === undefined) return undefined;
    const query = trigramQueryOf(input.pattern, { caseInsensitive: input.case_insensitive ?? false });
    return query.op === 'all' ? undefined : new IndexedLookup(index, query);
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
      ignore: ignoreMode(input.ignore, this.settings.search.ignore),
    };
  }
}

/** `*.go` is matched against the file name, `src/**\/*.go` against the path below the search directory. */
function fileFilter(glob: string, engine: RegexEngine): PathPredicate {
  const matches = namingArgument('glob_filter', () => compileGlob(glob, engine));
  if (glob.includes('/')) return matches;
  return (relativePath) => matches(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

/** The in-root path of an entry a scan of `start` reported. */
function descendantPath(start: RootPath, relativePath: string): RootPath {
  return { root: start.root, segments: [...start.segments, ...relativePath.split('/')] };
}
