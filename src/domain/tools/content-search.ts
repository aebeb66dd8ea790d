import type { FileSystemPort } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import { type FileMatches, type FileSearchLimits, type FileSearchOptions, type GrepMatch, matchResultBytes, type ReadAhead, searchFile } from '../search/file-search.js';
import { throwIfCancelled, type WorkContext } from '../work-context.js';

export interface GrepResult {
  readonly matches: GrepMatch[];
  readonly total_matches: number;
  readonly files_searched: number;
  readonly truncated: boolean;
  readonly timed_out: boolean;
  /** With ignore rules (issue 19): entries the walk passed over. */
  readonly ignored?: number;
}

export interface PendingFile {
  readonly path: RootPath;
  readonly readAhead?: ReadAhead;
  readonly limits: FileSearchLimits;
  readonly result: Promise<FileMatches | undefined>;
  /** Files the index vouches hold no match that follow this one in walk order: searched, with none, once it is used. */
  nothingAfter: number;
}

/** Room in the result budget for the fields around `matches`. */
export const RESULT_ENVELOPE_BYTES = 256;

/** grep's results, taken file by file in walk order under the call's limits (files may be searched ahead). */
export class ContentSearch {
  readonly matches: GrepMatch[] = [];
  /** Files whose search ended and whose result was used; a file searched ahead and then abandoned is not counted. */
  filesSearched = 0;
  truncated = false;
  timedOut = false;
  /** The result is complete (result limit, or a file stopped at the deadline): no later file is used. */
  stopped = false;
  /** The file whose result made it complete. */
  stoppedAt?: RootPath;
  private textBytes = 0;
  private abandoned = false;
  private readonly options: FileSearchOptions;

  constructor(
    private readonly fs: FileSystemPort,
    options: Omit<FileSearchOptions, 'abandoned'>,
    private readonly maxResults: number,
    private readonly textBudget: number,
    private readonly work?: WorkContext,
  ) {
    // A cancelled call abandons every file being searched: each scan ends at its next line.
    this.options = { ...options, abandoned: () => this.abandoned || work?.signal?.aborted === true };
  }

  /** Starts searching a file with what the result can still take: a later file may only get less. */
  start(path: RootPath, readAhead?: ReadAhead): PendingFile {
    const limits = this.remaining();
    const result = searchFile(this.fs, path, this.options, limits, readAhead);
    // Its error, if any, is raised when its turn comes, or not at all if the search stops before.
    result.catch(() => undefined);
    return { path, readAhead, limits, result, nothingAfter: 0 };
  }

  /** A file the index vouches holds no match, its turn come with nothing searched ahead of it: as consume() of none. */
  countNothing(files = 1): void {
    this.filesSearched += files;
    this.work?.progress?.(this.filesSearched, undefined, 'files searched');
  }

  /** Adds the next file's result, in walk order, then the files vouched to hold no match after it. */
  async consume(pending: PendingFile): Promise<void> {
    await this.consumeOne(pending);
    if (this.stopped) return;
    if (pending.nothingAfter > 0) this.countNothing(pending.nothingAfter);
  }

  private async consumeOne(pending: PendingFile): Promise<void> {
    const limits = this.remaining();
    let found = await pending.result;
    throwIfCancelled(this.work);
    if (found !== undefined && !this.exactUnder(found, pending.limits, limits)) {
      // Where the text budget cut a file depends on what earlier files returned: search it again, now in turn.
      found = await searchFile(this.fs, pending.path, this.options, limits, pending.readAhead);
    }
    if (found === undefined) return;
    const kept = found.matches.slice(0, limits.maxMatches);
    for (const match of kept) {
      this.matches.push(match);
      this.textBytes += matchResultBytes(match);
    }
    this.filesSearched += 1;
    this.work?.progress?.(this.filesSearched, undefined, 'files searched');
    if (kept.length < found.matches.length || found.moreMatches || found.overBudget) this.truncated = true;
    if (found.timedOut) this.timedOut = true;
    this.stopped = this.truncated || found.timedOut;
    if (this.stopped) this.stoppedAt ??= pending.path;
  }

  /**
   * Whether a file searched ahead under `started` gives what a search in turn under `now` would.
   * Fewer allowed matches only drop the last ones (their context is complete either way); the
   * budget is exact only if the kept text fits and the budget did not cut the search short.
   */
  private exactUnder(found: FileMatches, started: FileSearchLimits, now: FileSearchLimits): boolean {
    if (started.maxMatches === now.maxMatches && started.textBudget === now.textBudget) return true;
    if (found.overBudget) return false;
    const kept = found.matches.slice(0, now.maxMatches);
    return kept.reduce((chars, match) => chars + matchResultBytes(match), 0) <= now.textBudget;
  }

  private remaining(): FileSearchLimits {
    return { maxMatches: this.maxResults - this.matches.length, textBudget: this.textBudget - this.textBytes };
  }

  abandon(): void {
    this.abandoned = true;
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
