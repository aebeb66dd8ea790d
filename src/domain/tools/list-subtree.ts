import { errors } from '../errors.js';
import { isoTimeFormatter } from '../iso-time.js';
import type { EntryKind, FileSystemPort } from '../ports/file-system.port.js';
import type { IgnoreRules } from '../search/ignore-rules.js';
import type { RootPath } from '../roots.js';
import { throwIfCancelled, type WorkContext } from '../work-context.js';

export const MAX_LIST_DEPTH = 10;
export const DEFAULT_MAX_ENTRIES = 1000;
export const MAX_LIST_ENTRIES = 10_000;

/**
 * Entries a listing past max_entries still walks to say how many it left out; past them `omitted`
 * is not given (a huge subtree is not walked to the end only to count it).
 */
export const OMITTED_COUNT_LIMIT = 100_000;

/** One entry of a listing deeper than 1: `path` is relative to the listed folder. */
export interface SubtreeEntry {
  readonly name: string;
  readonly path: string;
  readonly type: EntryKind;
  readonly size: number;
  readonly modified_at: string;
}

export interface Subtree {
  readonly entries: SubtreeEntry[];
  readonly truncated: boolean;
  /** Entries left out past max_entries, when counted (see OMITTED_COUNT_LIMIT). */
  readonly omitted?: number;
}

/** What a subtree listing is asked for, checked. */
export interface SubtreeLimits {
  readonly depth: number;
  readonly maxEntries: number;
}

/** depth 1–10 (default 1) and max_entries 1–10,000 (default 1000), or INVALID_ARGUMENT naming the bad one. */
export function subtreeLimits(input: { depth?: number; max_entries?: number }): SubtreeLimits {
  const depth = input.depth ?? 1;
  const maxEntries = input.max_entries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_LIST_DEPTH) {
    throw errors.invalidArgument(`depth must be an integer from 1 to ${MAX_LIST_DEPTH}, got ${depth}`);
  }
  if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > MAX_LIST_ENTRIES) {
    throw errors.invalidArgument(`max_entries must be an integer from 1 to ${MAX_LIST_ENTRIES}, got ${maxEntries}`);
  }
  return { depth, maxEntries };
}

/**
 * Issue 19: the subtree of `directory` down to `limits.depth`, pre-order, each directory's entries
 * right after it by name in code point order (the order FileSystemPort.scanTree reports in), at most
 * `limits.maxEntries` of them.
 *
 * Security: the walk is the port's scanTree, which confines every lookup to the root and never
 * follows a link below the start (a link is listed, not entered), so a link cannot lead the listing
 * out of the root or into a cycle.
 */
export async function listSubtree(
  fs: FileSystemPort,
  directory: RootPath,
  limits: SubtreeLimits,
  options: { rules?: IgnoreRules; work?: WorkContext } = {},
): Promise<Subtree> {
  const isoTime = isoTimeFormatter();
  const entries: SubtreeEntry[] = [];
  let full = false;
  let looked = 0;
  // Entries are judged ahead of their reports and in no promised order: every one is selected until the
  // listing is full, and once it is, the rest are only counted (scanned but not stat'ed).
  const select = () => !full;
  throwIfCancelled(options.work);
  const rules = options.rules;
  for await (const batch of fs.scanTree(directory, { maxDepth: limits.depth, select, ...rules?.scanOptions() })) {
    throwIfCancelled(options.work);
    looked += batch.scanned;
    for (const entry of batch.selected) {
      if (entries.length >= limits.maxEntries) break;
      const name = entry.relativePath.slice(entry.relativePath.lastIndexOf('/') + 1);
      entries.push({ name, path: entry.relativePath, type: entry.stat.kind, size: entry.stat.size, modified_at: isoTime(entry.stat.modifiedAt) });
    }
    if (entries.length >= limits.maxEntries) full = true;
    if (full && looked > limits.maxEntries + OMITTED_COUNT_LIMIT) return { entries, truncated: true };
  }
  // An ignored entry is scanned too, but max_entries did not leave it out: it is not in `omitted`.
  const omitted = looked - (rules?.ignored ?? 0) - entries.length;
  return omitted > 0 ? { entries, truncated: true, omitted } : { entries, truncated: false };
}
