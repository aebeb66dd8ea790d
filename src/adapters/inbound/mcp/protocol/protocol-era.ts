/**
 * Whether a negotiated (or claimed) protocol revision is of the 2026 era: no initialize, no
 * sessions, per-request `_meta`. Revisions are ISO dates, so they order as strings.
 */
export function isModernRevision(version: string | undefined): boolean {
  return version !== undefined && version >= '2026-07-28';
}
