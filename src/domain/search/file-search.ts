import type { EntryStat, FileSystemPort, ReadableFile } from '../ports/file-system.port.js';
import type { LineMatcher } from '../ports/regex-engine.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { BINARY_SNIFF_BYTES, looksBinary } from '../tools/file-text.js';
import { MAX_LINE_CHARS, readLines } from './line-reader.js';
import { escapedLength } from '../result-budget.js';
import { returnedLine } from './match-text.js';

export interface GrepMatch {
  /** Relative to the root, so it can be passed straight to another tool. */
  readonly file: string;
  readonly line_number: number;
  readonly line_content: string;
  readonly context_before: string[];
  readonly context_after: string[];
}

/** What one file may still add to the call's result. */
export interface FileSearchLimits {
  /** Matches kept; one more is looked for only to know that the result is truncated. */
  readonly maxMatches: number;
  /** JSON bytes of returned matches (the result budget less what earlier files returned). */
  readonly textBudget: number;
}

export interface FileSearchOptions {
  readonly matcher: LineMatcher;
  readonly contextLines: number;
  readonly expired: () => boolean;
  /** True once the call no longer wants this file's result: its scan ends at the next line. */
  readonly abandoned: () => boolean;
}

export interface FileMatches {
  readonly matches: GrepMatch[];
  /** JSON bytes of `matches`, as counted against the budget. */
  textBytes: number;
  /** A match beyond maxMatches exists. */
  moreMatches: boolean;
  /** The scan stopped because the next text would have overflowed textBudget. */
  overBudget: boolean;
  /** The scan stopped mid-file at the deadline. */
  timedOut: boolean;
}

/** Lines (or characters) scanned between two looks at the clock inside one file. */
const LINES_PER_DEADLINE_CHECK = 1000;
const CHARS_PER_DEADLINE_CHECK = 4 * 1024 * 1024;

/** A file's bytes as a tree scan read them (FileSystemPort.scanTree with readContents). */
export interface ReadAhead {
  readonly stat: EntryStat;
  readonly contents: Uint8Array;
}

/** Searches one file; undefined when there is nothing to search (gone since it was listed, or binary). */
export async function searchFile(
  fs: FileSystemPort,
  path: RootPath,
  options: FileSearchOptions,
  limits: FileSearchLimits,
  readAhead?: ReadAhead,
): Promise<FileMatches | undefined> {
  const file = readAhead === undefined ? await openToSearch(fs, path) : contentsFile(readAhead);
  if (file === undefined) return undefined;
  try {
    // A file read ahead is its own first chunk: nothing of it is read twice.
    const head = readAhead?.contents ?? (await file.read(0, BINARY_SNIFF_BYTES));
    if (looksBinary(head)) return undefined;
    const whole = await wholeSmallFile(file, head, options.matcher);
    if (whole && !mayMatchSomeLine(whole, options.matcher)) return noMatches();
    return await scan(readLines(file, whole ?? head), displayPath(path), options, limits, whole && linesMayMatch(whole, options.matcher));
  } finally {
    await file.close();
  }
}

async function openToSearch(fs: FileSystemPort, path: RootPath): Promise<ReadableFile | undefined> {
  try {
    return await fs.openFile(path);
  } catch (error) {
    // Gone between listing and opening: there is nothing left to search.
    if ((error as { code?: unknown } | null)?.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** Bytes a tree scan read, as a file to search. */
function contentsFile({ stat, contents }: ReadAhead): ReadableFile {
  return {
    stat: { ...stat, size: contents.length },
    read: async (position, length) => contents.subarray(position, position + length),
    close: async () => undefined,
  };
}

/**
 * A file no longer than a line may be (so no line of it is cut short), read whole, when the matcher
 * can look at many lines at once: most files of a tree have no match, and one look at each saves
 * splitting it into lines.
 */
async function wholeSmallFile(file: ReadableFile, head: Uint8Array, matcher: LineMatcher): Promise<Uint8Array | undefined> {
  const size = file.stat.size;
  if (!matcher.mayMatchSomeLine || size > MAX_LINE_CHARS) return undefined;
  if (head.length >= size) return head;
  const whole = new Uint8Array(size);
  whole.set(head);
  let filled = head.length;
  while (filled < size) {
    const bytes = await file.read(filled, size - filled, whole.subarray(filled));
    if (bytes.length === 0) break;
    if (bytes.buffer !== whole.buffer || bytes.byteOffset !== filled) whole.set(bytes, filled);
    filled += bytes.length;
  }
  return whole.subarray(0, filled);
}

const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

function mayMatchSomeLine(bytes: Uint8Array, matcher: LineMatcher): boolean {
  // readLines drops a '\r' before each '\n', which the block matcher's $ would not see past.
  if (bytes.includes(CARRIAGE_RETURN)) return true;
  if (matcher.mayMatchSomeLineBytes) {
    // readLines' decoder drops a leading byte order mark; the look must not see it either (^ would miss).
    const bom = BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte);
    return matcher.mayMatchSomeLineBytes(bom ? bytes.subarray(BYTE_ORDER_MARK.length) : bytes);
  }
  return matcher.mayMatchSomeLine?.(new TextDecoder('utf-8').decode(bytes)) ?? true;
}

/** The lines of a whole file that may match (see LineMatcher.linesMayMatchBytes); undefined: every line. */
function linesMayMatch(bytes: Uint8Array, matcher: LineMatcher): number[] | undefined {
  if (matcher.linesMayMatchBytes === undefined || bytes.includes(CARRIAGE_RETURN)) return undefined;
  const bom = BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte);
  return matcher.linesMayMatchBytes(bom ? bytes.subarray(BYTE_ORDER_MARK.length) : bytes);
}

function noMatches(): FileMatches {
  return { matches: [], textBytes: 0, moreMatches: false, overBudget: false, timedOut: false };
}

async function scan(
  lines: AsyncGenerator<string>,
  shownPath: string,
  options: FileSearchOptions,
  limits: FileSearchLimits,
  /** The only lines test() may be true for (ascending), when known: the others are not tested. */
  candidates?: readonly number[],
): Promise<FileMatches> {
  const found: FileMatches = { matches: [], textBytes: 0, moreMatches: false, overBudget: false, timedOut: false };
  const spend = (chars: number): boolean => {
    if (found.textBytes + chars > limits.textBudget) {
      found.overBudget = true;
      return false;
    }
    found.textBytes += chars;
    return true;
  };
  const { contextLines } = options;
  const before: string[] = [];
  let awaitingContext: GrepMatch[] = [];
  let lineNumber = 0;
  let linesSinceCheck = 0;
  let charsSinceCheck = 0;
  let nextCandidate = 0;
  let line = '';
  let cut: string | undefined;
  // Made once, not per line: a closure per line cost a third of a repeated indexed grep in the bundle (keepNames names each).
  const shown = () => (cut ??= returnedLine(line));
  for await (line of lines) {
    cut = undefined;
    if (options.abandoned()) return found;
    lineNumber += 1;
    const candidate = candidates === undefined || candidates[nextCandidate] === lineNumber;
    if (candidate && candidates !== undefined) nextCandidate += 1;
    linesSinceCheck += 1;
    charsSinceCheck += line.length;
    if (linesSinceCheck >= LINES_PER_DEADLINE_CHECK || charsSinceCheck >= CHARS_PER_DEADLINE_CHECK) {
      linesSinceCheck = 0;
      charsSinceCheck = 0;
      if (options.expired()) {
        found.timedOut = true;
        return found;
      }
    }
    if (awaitingContext.length > 0) {
      if (!spend(lineResultBytes(shown()) * awaitingContext.length)) return found;
      for (const match of awaitingContext) match.context_after.push(shown());
      awaitingContext = awaitingContext.filter((match) => match.context_after.length < contextLines);
    }
    if (found.moreMatches) {
      // Past the limit, keep reading only to finish the context of the last matches.
      if (awaitingContext.length === 0) return found;
      continue;
    }
    if (candidate && options.matcher.test(line)) {
      if (found.matches.length >= limits.maxMatches) {
        found.moreMatches = true;
        if (awaitingContext.length === 0) return found;
      } else {
        if (!spend(before.reduce((bytes, kept) => bytes + lineResultBytes(kept), MATCH_OVERHEAD_BYTES + escapedLength(shownPath) + lineResultBytes(shown())))) return found;
        const match: GrepMatch = {
          file: shownPath,
          line_number: lineNumber,
          line_content: shown(),
          context_before: [...before],
          context_after: [],
        };
        found.matches.push(match);
        if (contextLines > 0) awaitingContext.push(match);
      }
    }
    if (contextLines > 0) {
      before.push(shown());
      if (before.length > contextLines) before.shift();
    }
  }
  return found;
}

/** JSON bytes of a match's fixed keys and punctuation, its line number at most 16 digits. */
const MATCH_OVERHEAD_BYTES = 100;

/** A returned line as it travels: escaped, quoted, with a comma. */
function lineResultBytes(line: string): number {
  return escapedLength(line) + 3;
}

/** The JSON bytes a match costs against the result budget: its file, its line and both contexts. */
export function matchResultBytes(match: GrepMatch): number {
  const sum = (lines: string[]) => lines.reduce((bytes, line) => bytes + lineResultBytes(line), 0);
  return MATCH_OVERHEAD_BYTES + escapedLength(match.file) + lineResultBytes(match.line_content) + sum(match.context_before) + sum(match.context_after);
}
