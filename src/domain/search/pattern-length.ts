import { errors } from '../errors.js';

/**
 * Security: matching costs pattern length x line length, synchronously on the event loop, so an
 * unbounded pattern on a long line blocks the server (200k x 200k took ~270 s). At this cap RE2
 * matches a 1 MiB line in ~15 ms. Counted in UTF-16 units, as the tool schemas' `.max()` does.
 */
export const MAX_PATTERN_CHARS = 1000;

export function assertPatternLength(pattern: string): void {
  if (pattern.length > MAX_PATTERN_CHARS) throw errors.invalidArgument(`pattern longer than ${MAX_PATTERN_CHARS} characters`);
}
