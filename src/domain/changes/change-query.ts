import type { ChangeQuery, ChangeRecord } from '../ports/change-journal.port.js';

/** Whether a record answers a query (every store filters with this, so they cannot drift). */
export function matchesQuery(record: ChangeRecord, query: ChangeQuery): boolean {
  if (query.principal !== undefined && record.principal !== query.principal) return false;
  if (query.session !== undefined && record.session !== query.session) return false;
  if (query.afterId !== undefined && record.id <= query.afterId) return false;
  if (query.beforeId !== undefined && record.id >= query.beforeId) return false;
  if (query.roots !== undefined) {
    if (query.roots.get(record.root) !== record.rootKey) return false;
    if (record.toRoot !== undefined && query.roots.get(record.toRoot) !== record.toRootKey) return false;
  }
  if (query.root !== undefined && record.root !== query.root && record.toRoot !== query.root) return false;
  if (query.path !== undefined) {
    const here = record.path === query.path && (query.root === undefined || record.root === query.root);
    const there = record.toPath === query.path && (query.root === undefined || record.toRoot === query.root);
    if (!here && !there) return false;
  }
  return true;
}

/** Newest first, at most `limit`. */
export function newestFirst(records: Iterable<ChangeRecord>, query: ChangeQuery): ChangeRecord[] {
  const matching = [...records].filter((record) => matchesQuery(record, query)).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return query.limit === undefined ? matching : matching.slice(0, query.limit);
}

export function imageBytes(entries: readonly { readonly content?: Uint8Array }[]): number {
  return entries.reduce((sum, entry) => sum + (entry.content?.byteLength ?? 0), 0);
}
