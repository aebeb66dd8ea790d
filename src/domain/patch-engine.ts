import { parsePatch } from 'diff';
import { DomainError, inRoot } from './errors.js';
import { displayPath, type RootPath } from './roots.js';

type LineEnding = '\n' | '\r\n';

interface PatchLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
  /** Followed by '\ No newline at end of file'. */
  readonly noNewline: boolean;
}

interface Hunk {
  /** 1-based position in the patch, for messages. */
  readonly number: number;
  /** 1-based line in the original file where the hunk's old side begins. */
  readonly oldStart: number;
  readonly lines: readonly PatchLine[];
}

/** One file's hunks, parsed and checked, ready to apply. */
export interface FilePatch {
  readonly hunks: readonly Hunk[];
  /** Line ending the patch itself uses; only chosen for files that have none yet. */
  readonly lineEnding: LineEnding;
}

interface Line {
  readonly text: string;
  readonly eol: '' | LineEnding;
}

/**
 * Parses a unified diff for exactly one file. `---`/`+++` headers are optional and their
 * file names are ignored: the tool's `path` names the target.
 */
export function parseUnifiedDiff(patchText: string, target: RootPath): FilePatch {
  let parsed: ReturnType<typeof parsePatch>;
  try {
    parsed = parseTolerantly(patchText);
  } catch (error) {
    const reason = error instanceof Error ? error.message.trim() : String(error);
    throw invalidPatch(target, `${reason}; every hunk line must start with ' ', '-' or '+'`);
  }
  const files = parsed.filter((file) => file.hunks.length > 0);
  if (files.length === 0) {
    throw invalidPatch(target, 'no hunks found; expected unified diff hunks starting with "@@ -start,count +start,count @@"');
  }
  if (files.length > 1) {
    throw invalidPatch(target, `the patch changes ${files.length} files; patch_file applies a diff to one file per call`);
  }
  let lineEnding: LineEnding = '\n';
  const hunks = files[0].hunks.map((hunk, index): Hunk => {
    if (!Number.isFinite(hunk.oldStart) || !Number.isFinite(hunk.newStart)) {
      throw invalidPatch(target, `hunk ${index + 1} has no line numbers; expected "@@ -start,count +start,count @@"`);
    }
    const lines: PatchLine[] = [];
    for (const raw of hunk.lines) {
      if (raw.startsWith('\\')) {
        const previous = lines.pop();
        if (previous) lines.push({ ...previous, noNewline: true });
        continue;
      }
      // parsePatch splits on '\n' only, so a CRLF patch leaves a '\r' on every line.
      if (raw.endsWith('\r')) lineEnding = '\r\n';
      const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      // An empty line inside a hunk is a context line whose leading space was lost.
      const op = body.length === 0 ? ' ' : (body[0] as PatchLine['op']);
      lines.push({ op, text: body.slice(1), noNewline: false });
    }
    return { number: index + 1, oldStart: hunk.oldStart, lines };
  });
  return { hunks, lineEnding };
}

/**
 * Hand-written diffs often miscount the lines in "@@ -a,b +c,d @@". When the strict parse
 * fails, the counts are taken from the hunk bodies instead; if that fails too, the strict
 * parse's error is the one reported.
 */
function parseTolerantly(patchText: string): ReturnType<typeof parsePatch> {
  try {
    return parsePatch(patchText);
  } catch (strictError) {
    try {
      return parsePatch(recountHunkHeaders(patchText));
    } catch {
      throw strictError;
    }
  }
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

function recountHunkHeaders(patchText: string): string {
  const lines = patchText.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const header = HUNK_HEADER.exec(lines[i].replace(/\r$/, ''));
    if (!header) continue;
    let end = i + 1;
    while (end < lines.length && isHunkBody(lines, end)) end += 1;
    // A stray line would be skipped silently by parsePatch once the counts fit: keep the strict error instead.
    if (end < lines.length && !/^(@@|--- |\+\+\+ |diff |Index:)/.test(lines[end])) return patchText;
    // Blank lines after the last real hunk line separate hunks or end the text; they are not context.
    while (end > i + 1 && lines[end - 1].replace(/\r$/, '') === '') end -= 1;
    let oldCount = 0;
    let newCount = 0;
    for (let j = i + 1; j < end; j += 1) {
      const op = lines[j].replace(/\r$/, '')[0] ?? ' ';
      if (op !== '+' && op !== '\\') oldCount += 1;
      if (op !== '-' && op !== '\\') newCount += 1;
    }
    lines[i] = `@@ -${header[1]},${oldCount} +${header[2]},${newCount} @@${header[3]}`;
    i = end - 1;
  }
  return lines.join('\n');
}

function isHunkBody(lines: readonly string[], index: number): boolean {
  const line = lines[index].replace(/\r$/, '');
  if (line.startsWith('@@') || /^(diff |Index:)/.test(line)) return false;
  // A '---' line followed by '+++' starts the next file, not a removed line.
  if (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ')) return false;
  return line === '' || /^[ +\-\\]/.test(line);
}

/**
 * Applies every hunk or none (NFR-015): the result is computed in memory and only
 * returned when all hunks matched. Context and removed lines must match exactly (line
 * endings aside); a hunk is looked for at its stated line first, then at the nearest
 * position after the previous hunk, like `patch` without fuzz. The search is not bounded (a
 * thin context can match far away), so each hunk's stated and applied lines are reported. Lines the patch does not
 * add keep their own line endings; added lines take the file's, and the trailing-newline
 * state changes only where the patch says so with '\ No newline at end of file'.
 */
export interface HunkPlacement {
  /** The old-side start line the hunk header states (1-based). */
  readonly statedLine: number;
  /** Where its old lines were found in the file as read (1-based). */
  readonly appliedLine: number;
}

export function applyPatch(content: string, patch: FilePatch, target: RootPath): { content: string; hunksApplied: number; placements: HunkPlacement[] } {
  const lines = splitLines(content);
  const eol = lines.find((line) => line.eol !== '')?.eol || patch.lineEnding;
  const out: Line[] = [];
  let cursor = 0;
  let drift = 0;
  let lastHunkReachedEnd = false;
  let lastHunk: Hunk | undefined;
  const placements: HunkPlacement[] = [];

  for (const hunk of patch.hunks) {
    const old = hunk.lines.filter((line) => line.op !== '+');
    const expected = hunk.oldStart - 1 + drift;
    const at = locate(lines, old, expected, cursor);
    if (at === null) throw hunkMismatch(hunk, lines, old, Math.min(Math.max(expected, cursor), lines.length), target);
    drift = at - (hunk.oldStart - 1);
    placements.push({ statedLine: hunk.oldStart, appliedLine: at + 1 });
    for (let i = cursor; i < at; i += 1) out.push(lines[i]);
    let index = at;
    for (const line of hunk.lines) {
      if (line.op === ' ') out.push(lines[index++]);
      else if (line.op === '-') index += 1;
      else out.push({ text: line.text, eol });
    }
    cursor = index;
    lastHunk = hunk;
    lastHunkReachedEnd = cursor === lines.length;
  }
  for (let i = cursor; i < lines.length; i += 1) out.push(lines[i]);

  // Only the original last line can lack a newline; once lines follow it, it needs one.
  for (let i = 0; i < out.length - 1; i += 1) if (out[i].eol === '') out[i] = { text: out[i].text, eol };
  if (lastHunk && lastHunkReachedEnd) settleFinalNewline(out, lastHunk, lines, eol);
  return { content: out.map((line) => line.text + line.eol).join(''), hunksApplied: patch.hunks.length, placements };
}

function settleFinalNewline(out: Line[], hunk: Hunk, original: readonly Line[], eol: LineEnding): void {
  const newSide = hunk.lines.filter((line) => line.op !== '-');
  const oldSide = hunk.lines.filter((line) => line.op !== '+');
  if (newSide.length === 0 || out.length === 0) return;
  const newNoNewline = newSide[newSide.length - 1].noNewline;
  const oldNoNewline = oldSide.length > 0 && oldSide[oldSide.length - 1].noNewline;
  const originalNoNewline = original.length > 0 && original[original.length - 1].eol === '';
  const last = out[out.length - 1];
  let finalEol: Line['eol'];
  if (newNoNewline) finalEol = '';
  else if (oldNoNewline) finalEol = last.eol || eol;
  else finalEol = originalNoNewline ? '' : last.eol || eol;
  out[out.length - 1] = { text: last.text, eol: finalEol };
}

function locate(lines: readonly Line[], old: readonly PatchLine[], expected: number, minimum: number): number | null {
  if (old.length === 0) return expected >= minimum && expected <= lines.length ? expected : null;
  const maximum = lines.length - old.length;
  // Clamped so a wild line number in a header costs no more than one pass over the file.
  const origin = Math.min(Math.max(expected, minimum), Math.max(maximum, minimum));
  for (let distance = 0; ; distance += 1) {
    const before = origin - distance;
    const after = origin + distance;
    const beforeInRange = before >= minimum && before <= maximum;
    const afterInRange = after >= minimum && after <= maximum;
    if (beforeInRange && matchesAt(lines, old, before)) return before;
    if (distance > 0 && afterInRange && matchesAt(lines, old, after)) return after;
    if (before < minimum && after > maximum) return null;
  }
}

function matchesAt(lines: readonly Line[], old: readonly PatchLine[], at: number): boolean {
  for (let j = 0; j < old.length; j += 1) if (lines[at + j].text !== old[j].text) return false;
  return true;
}

function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let nl = content.indexOf('\n'); nl !== -1; nl = content.indexOf('\n', start)) {
    const crlf = nl > start && content[nl - 1] === '\r';
    lines.push({ text: content.slice(start, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    start = nl + 1;
  }
  if (start < content.length) lines.push({ text: content.slice(start), eol: '' });
  return lines;
}

function hunkMismatch(hunk: Hunk, lines: readonly Line[], old: readonly PatchLine[], at: number, target: RootPath): DomainError {
  const path = displayPath(target);
  let detail = `the file has only ${lines.length} lines`;
  for (let j = 0; j < old.length; j += 1) {
    const found = lines[at + j];
    if (found === undefined) {
      detail = `the patch expects ${quote(old[j].text)} at line ${at + j + 1}, past the end of the file (${lines.length} lines)`;
      break;
    }
    if (found.text !== old[j].text) {
      detail = `line ${at + j + 1} is ${quote(found.text)}, the patch expects ${quote(old[j].text)}`;
      break;
    }
  }
  return new DomainError(
    'PATCH_FAILED',
    `patch failed: hunk ${hunk.number} does not match at line ${hunk.oldStart}: ${detail}; ${path} was not changed${inRoot(target.root.name)}`,
    { root: target.root.name, attemptedPath: path },
  );
}

function invalidPatch(target: RootPath, reason: string): DomainError {
  return new DomainError('INVALID_ARGUMENT', `invalid patch: ${reason}${inRoot(target.root.name)}`, {
    root: target.root.name,
    attemptedPath: displayPath(target),
  });
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
