/** Characters compared at once while looking for where two texts start (or stop) differing. */
const CHUNK = 64 * 1024;

/** The part of two texts a line diff needs: whole lines, from a few before the first difference to a few after the last. */
export interface ChangedRegion {
  /** Lines before the region, the same in both texts. */
  readonly linesBefore: number;
  readonly before: string;
  readonly after: string;
}

/**
 * Cuts the lines two texts share at their start and end, keeping `context` of them on each side
 * of what differs, so that a diff of a one-line edit in a file of megabytes works on a few lines.
 * The comparisons run in chunks of native string equality: milliseconds for megabytes.
 */
export function changedRegion(before: string, after: string, context: number): ChangedRegion {
  const shortest = Math.min(before.length, after.length);
  const prefix = commonPrefix(before, after, shortest);
  const suffix = commonSuffix(before, after, shortest - prefix);
  // Both cuts fall just after a newline that lies inside the shared text, so each is a line start in both texts.
  let start = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  let end = suffix === 0 ? before.length : lineStartFrom(before, before.length - suffix);
  // (lastIndexOf reads a negative position as 0, so a cut at 1 is taken to 0 by hand.)
  for (let line = 0; line < context && start > 0; line += 1) start = start === 1 ? 0 : before.lastIndexOf('\n', start - 2) + 1;
  for (let line = 0; line < context && end < before.length; line += 1) end = lineStartFrom(before, end);
  const cutAtEnd = before.length - end;
  return { linesBefore: countNewlines(before, start), before: before.slice(start, end), after: after.slice(start, after.length - cutAtEnd) };
}

function commonPrefix(a: string, b: string, limit: number): number {
  let at = 0;
  while (at < limit) {
    const size = Math.min(CHUNK, limit - at);
    if (a.slice(at, at + size) === b.slice(at, at + size)) at += size;
    else return at + firstDifference(a.slice(at, at + size), b.slice(at, at + size));
  }
  return at;
}

function commonSuffix(a: string, b: string, limit: number): number {
  let length = 0;
  while (length < limit) {
    const size = Math.min(CHUNK, limit - length);
    const left = a.slice(a.length - length - size, a.length - length);
    const right = b.slice(b.length - length - size, b.length - length);
    if (left === right) length += size;
    else return length + (size - lastDifference(left, right) - 1);
  }
  return length;
}

function firstDifference(a: string, b: string): number {
  let at = 0;
  while (a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}

function lastDifference(a: string, b: string): number {
  let at = a.length - 1;
  while (a.charCodeAt(at) === b.charCodeAt(at)) at -= 1;
  return at;
}

/** The start of the line after the newline at or past `from`; the text's end when there is none. */
function lineStartFrom(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline + 1;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
