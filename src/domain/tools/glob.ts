import { compareCodePoints, sortByCodePoints } from '../code-point-order.js';
import { errors } from '../errors.js';
import { isoTimeFormatter } from '../iso-time.js';
import type { EntryKind } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import { namingArgument, namingRoot } from '../search/argument-errors.js';
import { compileGlob, type PathPredicate } from '../search/glob-pattern.js';
import { ignoreMode, ignoreRulesFor } from '../search/ignore-rules.js';
import { assertPatternLength } from '../search/pattern-length.js';
import { ENTRIES_PER_DEADLINE_CHECK, SearchLimits } from '../search/search-limits.js';
import { statSearchStart } from '../search/start-point.js';
import { TreeSearch } from './tree-search.js';
import { throwIfCancelled, type WorkContext } from '../work-context.js';

export const TYPE_FILTERS = ['file', 'directory', 'symlink', 'all'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

export interface GlobInput {
  readonly root: string;
  readonly pattern?: string;
  readonly regex?: string;
  readonly path?: string;
  readonly max_results?: number;
  readonly timeout_seconds?: number;
  readonly max_depth?: number;
  readonly type_filter?: string;
  readonly ignore?: string;
}

export interface GlobMatch {
  /** Relative to the root, so it can be passed straight to another tool. */
  readonly path: string;
  readonly type: EntryKind;
  readonly size: number;
  readonly modified_at: string;
}

export interface GlobResult {
  readonly matches: GlobMatch[];
  readonly total_matches: number;
  readonly truncated: boolean;
  readonly timed_out: boolean;
  /** With ignore rules (issue 19): entries the walk passed over. */
  readonly ignored?: number;
}

/** FR-017: find entries by glob or regex on their path below a directory of a root. */
export class Glob extends TreeSearch {
  async execute(input: GlobInput, work?: WorkContext): Promise<GlobResult> {
    return this.asSearch(() => this.globTree(input, work));
  }

  private async globTree(input: GlobInput, work?: WorkContext): Promise<GlobResult> {
    const start = this.access.path('glob', input.root, input.path ?? '.');
    const { typeFilter, limits, matches, ignore } = namingRoot(start.root.name, () => ({
      typeFilter: parseTypeFilter(input.type_filter),
      ignore: ignoreMode(input.ignore, this.settings.search.ignore),
      limits: SearchLimits.from(this.settings.search, this.clock, input),
      matches: this.pathPredicate(input),
    }));

    const startStat = await statSearchStart(this.fs, start);
    if (startStat.kind !== 'directory') throw errors.notADirectory(start.root.name, displayPath(start));

    const found: GlobMatch[] = [];
    let truncated = false;
    let timedOut = false;
    let scanned = 0;
    /** The entry the result had no room for, when it was cut there. */
    let stop: string | undefined;
    const shownPrefix = start.segments.length === 0 ? '' : `${displayPath(start)}/`;
    const isoTime = isoTimeFormatter();
    let reached = 0;
    const byName = matches.byName;
    const select = (relativePath: string, kind: EntryKind, name?: string): boolean => {
      // The deadline is looked at every ENTRIES_PER_DEADLINE_CHECK entries, as the walk reaches them (a
      // clock read per entry was a tenth of a glob over 100k entries): what was selected before it passed is kept.
      if (timedOut || (++reached % ENTRIES_PER_DEADLINE_CHECK === 0 && limits.expired())) {
        timedOut = true;
        return false;
      }
      if (typeFilter !== 'all' && kind !== typeFilter) return false;
      // A name the scan has at hand is read as it is: the path, a new string, need not be joined to be read.
      return byName !== undefined && name !== undefined ? byName(name) : matches(relativePath);
    };
    const rules = await ignoreRulesFor(this.fs, start, ignore, this.ignoreCache);
    throwIfCancelled(work);
    // From a snapshot, the ignore rules' verdicts it kept for these rules stand: a repeated glob judges no entry again.
    const judges = rules && { ignore: { key: rules.key, passOver: rules.passOver } };
    const options = { maxDepth: limits.maxDepth, select, selectNameEnding: matches.nameEnding, ...rules?.scanOptions() };
    const batches = (await this.walk(start, options, ignore, true, judges))[Symbol.asyncIterator]();
    try {
      scan: for (let next = await batches.next(); !next.done; ) {
        const batch = next.value;
        throwIfCancelled(work);
        scanned += batch.scanned;
        if (batch.scanned > 0) work?.progress?.(scanned, undefined, 'entries scanned');
        for (const entry of batch.selected) {
          if (found.length >= limits.maxResults) {
            truncated = true;
            stop = entry.relativePath;
            // This entry was selected before the deadline passed, if it did: the limit came first.
            timedOut = false;
            break scan;
          }
          found.push({
            // The snapshot's own string for it when the scan has one (no new string per match).
            path: entry.rootPath ?? shownPrefix + entry.relativePath,
            type: entry.stat.kind,
            size: entry.stat.size,
            modified_at: isoTime(entry.stat.modifiedAt),
          });
        }
        if (timedOut) break;
        // A scan may leave names that cannot match unasked (selectNameEnding), so `select` alone may not see
        // the deadline. Past it, the walk is timed out only if it had more to give: a deadline that passed
        // while its last batch came is a complete answer.
        const late = limits.expired();
        next = await batches.next();
        if (late && !next.done) {
          timedOut = true;
          break;
        }
      }
    } finally {
      await batches.return?.();
    }
    sortByCodePoints(found, (match) => match.path);
    const result = { matches: found, total_matches: found.length, truncated, timed_out: timedOut };
    return rules === undefined ? result : { ...result, ignored: stop === undefined ? rules.ignored : rules.ignoredBefore(stop) };
  }

  /** Glob or regex, both against the path relative to the search directory. */
  private pathPredicate(input: GlobInput): PathPredicate {
    // An empty string is how some clients spell "not given".
    const pattern = input.pattern || undefined;
    const regex = input.regex || undefined;
    if ((pattern === undefined) === (regex === undefined)) {
      throw errors.invalidArgument('exactly one of pattern or regex must be provided');
    }
    if (pattern !== undefined) return namingArgument('pattern', () => compileGlob(pattern, this.regex));
    const matcher = namingArgument('regex', () => {
      assertPatternLength(regex as string);
      return this.regex.compile(regex as string, { caseInsensitive: false });
    });
    return (relativePath) => matcher.test(relativePath);
  }
}

function parseTypeFilter(value: string | undefined): TypeFilter {
  if (value === undefined) return 'all';
  if ((TYPE_FILTERS as readonly string[]).includes(value)) return value as TypeFilter;
  throw errors.invalidArgument(`invalid type_filter: ${value} (valid: ${TYPE_FILTERS.join(', ')})`);
}
