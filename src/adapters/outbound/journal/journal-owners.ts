import { linkSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CHANGE_ID } from '../../../domain/changes/change-id.js';
import { alive } from '../node-fs/in-flight.js';

/** The server process that began a record or claimed a change. */
export interface Owner {
  readonly pid: number;
  readonly instance: string;
  /** Absent in records of older versions (taken as this host). */
  readonly host?: string;
}

/** Who claimed a change for an undo (claims/<id>). */
export interface Claim extends Owner {
  readonly undoId: string;
}

export const HOST = hostname();

/**
 * Whether `owner` is a server that is gone: another instance than this one (a reopened journal's
 * own earlier records count as gone), on this host, whose process has exited. Security: a process
 * on another host sharing the directory is never judged by a local pid, which may be anyone's.
 */
export function gone(owner: Owner, instance: string): boolean {
  if (owner.instance === instance) return false;
  if (owner.host !== undefined && owner.host !== HOST) return false;
  return owner.pid === process.pid || !alive(owner.pid);
}

/** Whether the claim in `file` was made by a server that is gone. */
export function deadClaim(file: string, instance: string): boolean {
  try {
    const claim = JSON.parse(readFileSync(file, 'utf8')) as Partial<Claim>;
    return typeof claim.pid === 'number' && typeof claim.instance === 'string' && gone(claim as Claim, instance);
  } catch {
    // Not ours to judge (gone, or written by an older version that kept no owner).
    return false;
  }
}

/**
 * Start-up: a claim whose server is gone while its record does not say undone was never used: the
 * restore runs only once the record says so, and a release rewrites the record before it removes
 * the claim. Left, it would refuse every later undo of that change ("another undo ran first").
 * It is moved aside first and removed only if it is still the dead server's, so a claim a live
 * server made meanwhile is never taken.
 */
export function settleDeadClaims(claims: string, instance: string, undone: (id: string) => boolean): void {
  for (const id of readdirSync(claims)) {
    if (!CHANGE_ID.test(id) || undone(id) || !deadClaim(join(claims, id), instance)) continue;
    const aside = join(claims, `.${id}.${instance}.stale`);
    try {
      renameSync(join(claims, id), aside);
      if (!deadClaim(aside, instance)) linkSync(aside, join(claims, id));
    } catch {
      // Taken or removed by another server meanwhile: theirs to settle.
    }
    rmSync(aside, { force: true });
  }
}
