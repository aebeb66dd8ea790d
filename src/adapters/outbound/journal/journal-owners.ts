import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
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
