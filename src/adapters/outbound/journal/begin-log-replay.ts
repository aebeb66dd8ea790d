import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CHANGE_ID } from '../../../domain/changes/change-id.js';
import type { ImageFiles } from './begin-log.js';
import { frames, readOwner, splitBegin, syncPathNow, writeAll } from './begin-log-format.js';
import { gone } from './journal-owners.js';

/**
 * Start-up, before the records are read: replays the segments of servers that are gone (an earlier
 * run of this one included) into image files, then removes them. Another live server's are its own.
 */
export function replayBeginLogs(dir: string, instance: string, files: ImageFiles): number {
  let restored = 0;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    // The owner first: a live server's segment (up to 32 MiB) is not read at all.
    const owner = readOwner(file);
    // Not ours to judge: a live server's, or one whose owner frame was never written (unknown).
    if (owner === null || !gone(owner, instance)) continue;
    const framed = frames(readFileSync(file));
    const begun = new Map<string, Buffer>();
    const committed = new Set<string>();
    for (const { kind, payload } of framed) {
      if (kind === 'begin') {
        const { id, at } = splitBegin(payload);
        begun.set(id, payload.subarray(at));
      } else if (kind === 'commit') committed.add(payload.toString('latin1'));
      else if (kind === 'gone') begun.delete(payload.toString('latin1'));
    }
    if (name.endsWith('.log')) {
      for (const [id, image] of begun) {
        // Security: the id names the file written; only a well-formed id (no separator, no dot-dot) is used.
        if (CHANGE_ID.test(id) && restore(files, id, image, committed.has(id))) restored += 1;
      }
      syncPathNow(files.records);
    }
    unlinkSync(file);
  }
  return restored;
}

/**
 * Makes `id`'s image file hold what the log says, durably: the begin's bytes, saying committed when
 * a commit frame followed. False when the file already did (written after the change, and only its
 * sync was missing) or a later version of the record says there is no image to keep.
 */
function restore(files: ImageFiles, id: string, logged: Buffer, committed: boolean): boolean {
  // A later version of the record (a claim, a release) supersedes the one in the image file, whose
  // before-image is still needed; unless it says the change is not undoable (an evicted image).
  const superseded = existsSync(files.recordFile(id));
  if (superseded && !undoable(files.recordFile(id))) return false;
  const target = files.imageFile(id);
  const wanted = committed ? committedVersion(logged) : logged;
  let current: Buffer | null = null;
  try {
    current = readFileSync(target);
  } catch {
    // Missing: a power cut lost it, or it was never written (a kill -9 came first).
  }
  if (current !== null && sameImage(current, wanted, id, committed && !superseded)) {
    syncPathNow(target);
    return false;
  }
  // A dot name ending .tmp: litter the journal's start-up removes, should this be cut short.
  const temp = join(dirname(target), `.${basename(target)}.replay.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeAll(fd, wanted, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  return true;
}

/** Whether a record file says its change can be undone (an unreadable one is taken to). */
function undoable(recordFile: string): boolean {
  try {
    return (JSON.parse(readFileSync(recordFile, 'utf8')) as { record?: { undoable?: boolean } }).record?.undoable !== false;
  } catch {
    return true;
  }
}

interface ImageHeader {
  record?: { state?: string; record?: { id?: string } };
}

/** The begin's image file bytes with its record saying committed. */
function committedVersion(logged: Buffer): Buffer {
  const newline = logged.indexOf(0x0a);
  const header = JSON.parse(logged.subarray(0, newline).toString('utf8')) as ImageHeader;
  if (header.record !== undefined) header.record.state = 'committed';
  return Buffer.concat([Buffer.from(JSON.stringify(header)), logged.subarray(newline)]);
}

/** Whether an image file on disk is whole and says what the log does (its header may be a later rendering of the same record). */
function sameImage(current: Buffer, wanted: Buffer, id: string, committed: boolean): boolean {
  const newline = current.indexOf(0x0a);
  if (newline < 0 || !current.subarray(newline).equals(wanted.subarray(wanted.indexOf(0x0a)))) return false;
  try {
    const header = JSON.parse(current.subarray(0, newline).toString('utf8')) as ImageHeader;
    return header.record?.record?.id === id && (!committed || header.record.state === 'committed');
  } catch {
    return false;
  }
}

