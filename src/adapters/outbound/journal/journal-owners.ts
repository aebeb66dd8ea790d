import { hostname } from 'node:os';
import { alive } from '../node-fs/in-flight.js';

/** The server process that began a record or claimed a change. */
export interface Owner {
  readonly pid: number;
  readonly instance: string;
  /** Absent in records of older versions (taken as this host). */
  readonly host?: string;
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
