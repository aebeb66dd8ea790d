import type { CacheHint, ServerOptions } from '@modelcontextprotocol/server';

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/**
 * `ttlMs` / `cacheScope` on the cacheable results of MCP 2026-07-28 (SEP-2549); 2025-era answers
 * never carry them. Honest about what changes under a client:
 * - a file's content changes on disk at any moment, so a read is not cached at all;
 * - the roots (resources/list) come from the config, but a client that shares its folders changes
 *   them, so that list is kept for a minute only;
 * - tools/list, the server's capabilities and the one resource template are fixed for the process
 *   (no reload), so five minutes. Tools and roots depend on the caller's grant: private. The template
 *   is the same for everyone: public.
 */
export const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'server/discover': { ttlMs: FIVE_MINUTES_MS, cacheScope: 'private' },
  'tools/list': { ttlMs: FIVE_MINUTES_MS, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: FIVE_MINUTES_MS, cacheScope: 'public' },
  'resources/list': { ttlMs: 60 * 1000, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
} satisfies Record<string, CacheHint>;
