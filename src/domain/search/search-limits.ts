import { errors } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { Settings } from '../settings.js';

/**
 * Entries a search reaches or passes over (walked, replayed, filtered out) between two looks at the
 * deadline: a few milliseconds of a walk at most, and a clock read is a tenth of a large glob if made
 * per entry. grep and glob share it so a timeout means the same in both.
 */
export const ENTRIES_PER_DEADLINE_CHECK = 64;

export interface SearchLimitArguments {
  readonly max_results?: number;
  readonly timeout_seconds?: number;
  readonly max_depth?: number;
}

/**
 * NFR-004 / OQ-001: per-call limits, defaulted and clamped to the operator's ceilings so a
 * client cannot ask for an unbounded search.
 */
export class SearchLimits {
  private constructor(
    readonly maxResults: number,
    readonly maxDepth: number | undefined,
    private readonly clock: Clock,
    private readonly deadline: number,
  ) {}

  static from(settings: Settings['search'], clock: Clock, args: SearchLimitArguments): SearchLimits {
    const maxResults = Math.min(
      positive('max_results', args.max_results, settings.defaultMaxResults, true),
      settings.maxResultsLimit,
    );
    const timeoutSeconds = Math.min(
      positive('timeout_seconds', args.timeout_seconds, settings.defaultTimeoutSeconds, false),
      settings.maxTimeoutSeconds,
    );
    const maxDepth = args.max_depth === undefined ? undefined : positive('max_depth', args.max_depth, 0, true);
    return new SearchLimits(maxResults, maxDepth, clock, clock.now().getTime() + timeoutSeconds * 1000);
  }

  expired(): boolean {
    return this.clock.now().getTime() >= this.deadline;
  }
}

function positive(name: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw errors.invalidArgument(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${value}`);
  }
  return value;
}
