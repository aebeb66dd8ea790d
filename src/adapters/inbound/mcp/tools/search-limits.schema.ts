import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';

/** The limit parameters grep and glob share, described with this server's actual defaults and ceilings. */
export function searchLimitFields(limits: Settings['search'], counted: 'matching lines' | 'entries') {
  return {
    max_results: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        `Stop after this many ${counted} and set truncated=true (default ${limits.defaultMaxResults}; ` +
          `values above ${limits.maxResultsLimit} are lowered to ${limits.maxResultsLimit}).`,
      ),
    timeout_seconds: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        `Give up after this many seconds and return what was found so far with timed_out=true ` +
          `(default ${limits.defaultTimeoutSeconds}; ` +
          `values above ${limits.maxTimeoutSeconds} are lowered to ${limits.maxTimeoutSeconds}).`,
      ),
    max_depth: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'How deep below `path` to look: 1 = only entries directly in `path`, 2 = also those one directory down, ' +
          'and so on. Unlimited when omitted.',
      ),
  };
}
