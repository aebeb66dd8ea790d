import { z } from 'zod';
import { IGNORE_MODES } from '../../../../domain/search/ignore-rules.js';
import type { Settings } from '../../../../domain/settings.js';

/** Issue 19: the `ignore` parameter of grep, glob, list_folder and file_list, with this server's default. */
export function ignoreField(limits: Settings['search']) {
  return z
    .enum(IGNORE_MODES)
    .optional()
    .describe(`gitignore: skip .git/ and ignored files; none: skip nothing. Default ${limits.ignore ?? 'gitignore'}.`);
}

/** The limit parameters grep and glob share, described with this server's actual defaults and ceilings. */
export function searchLimitFields(limits: Settings['search'], counted: 'matching lines' | 'entries') {
  return {
    max_results: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
`Most ${counted} returned (default ${limits.defaultMaxResults}, at most ${limits.maxResultsLimit}).`,
      ),
    timeout_seconds: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
`Seconds, then partial results (default ${limits.defaultTimeoutSeconds}, at most ${limits.maxTimeoutSeconds}).`,
      ),
    max_depth: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
'1 = direct entries only; default unlimited.',
      ),
  };
}
