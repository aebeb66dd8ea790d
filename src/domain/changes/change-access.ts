import type { PathPolicy } from '../path-policy.js';
import type { ChangeRecord } from '../ports/change-journal.port.js';

/** The tools that show a file's bytes: any of them on a root lets the journal show that root's content. */
const CONTENT_READERS = ['read_file', 'view', 'file_read'] as const;

/**
 * Security (issue 33): list_changes is offered wherever any tool is allowed, so the journal must
 * show no bytes and no hash that the root's own allowlist would not. A root allowing only
 * remove_file or copy must not hand back, as a diff, what was removed or copied. A change's bytes
 * were in every root it names (a copy's or move's source as well as its destination), so each of
 * them must allow a read tool for a diff, and hash_file for a sha256.
 */
export function diffRefusal(paths: PathPolicy, record: ChangeRecord): string | undefined {
  const denied = rootsOf(record).find((name) => !allows(paths, name, CONTENT_READERS));
  return denied === undefined ? undefined : `needs read_file on root ${denied}`;
}

/** Whether the caller may see the sha256 of a change's versions (see diffRefusal). */
export function mayHash(paths: PathPolicy, record: ChangeRecord): boolean {
  return rootsOf(record).every((name) => allows(paths, name, ['hash_file']));
}

function rootsOf(record: ChangeRecord): string[] {
  return record.toRoot === undefined || record.toRoot === record.root ? [record.root] : [record.root, record.toRoot];
}

function allows(paths: PathPolicy, rootName: string, tools: readonly string[]): boolean {
  // A root the caller cannot use (not granted, no longer served) allows nothing.
  if (!paths.roots.some((root) => root.name === rootName)) return false;
  const root = paths.root(rootName);
  return tools.some((tool) => root.allowedTools.has(tool));
}
