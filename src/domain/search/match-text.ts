/**
 * Security: bounds on the text one grep returns (the whole result is also held to Settings.maxResultBytes). Without them context_lines multiplied every
 * match by the whole file (a 98 KB file became a 2.9 GB server and an INTERNAL_ERROR).
 */

/** Context lines kept on each side of a match; a larger context_lines is lowered to this, as max_results is. */
export const MAX_CONTEXT_LINES = 50;

/** Characters of a returned line (line_content or context); the rest is replaced by a note, as view does. */
export const MAX_RETURNED_LINE_CHARS = 2000;

/** The line as returned: cut after MAX_RETURNED_LINE_CHARS code points, never inside a surrogate pair. */
export function returnedLine(line: string): string {
  // UTF-16 length bounds the code point count from above: short lines need no counting.
  if (line.length <= MAX_RETURNED_LINE_CHARS) return line;
  let codePoints = 0;
  let cut = line.length;
  for (let i = 0; i < line.length; i += 1) {
    if (isLowSurrogate(line.charCodeAt(i)) && i > 0 && isHighSurrogate(line.charCodeAt(i - 1))) continue;
    codePoints += 1;
    if (codePoints === MAX_RETURNED_LINE_CHARS + 1) cut = i;
  }
  if (codePoints <= MAX_RETURNED_LINE_CHARS) return line;
  return `${line.slice(0, cut)}... [truncated, ${codePoints} chars total]`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
