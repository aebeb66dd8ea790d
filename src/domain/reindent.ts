/**
 * new_str re-indented for where a whitespace-tolerant match lands (issue 32). Each level of the
 * model's indentation maps to one of the file's units, so a line deeper (or shallower) than any
 * old_str line lands as many levels deeper in the file's own unit. A line indented exactly like an
 * old_str line takes the file's indentation of that line as it is, which keeps irregular files
 * (aligned continuation lines) as they were. Invariant: a line's new indentation is all tabs or
 * all spaces, never a mix (a mix is a TabError in Python, and YAML forbids tabs).
 */

/** Columns a tab counts for when widths of tab and space indentation are compared. */
const TAB_COLUMNS = 4;

export function reindent(newStr: string, wanted: readonly string[], matched: readonly string[], fileLines: () => readonly string[]): string {
  const exact = new Map<string, string>();
  const oldIndents: string[] = [];
  wanted.forEach((line, i) => {
    if (line.trim() === '') return;
    const own = indentOf(line);
    oldIndents.push(own);
    if (!exact.has(own)) exact.set(own, indentOf(matched[i]));
  });
  if (oldIndents.length === 0) return newStr;
  const newLines = newStr.split(/\r?\n/);
  const newIndents = newLines.filter((line) => line.trim() !== '').map(indentOf);
  const modelUnit = commonStep(oldIndents.map(width)) ?? commonStep([...oldIndents, ...newIndents].map(width)) ?? TAB_COLUMNS;
  const fileUnit = unitOfFile(oldIndents.map((indent) => exact.get(indent)!), fileLines);
  const anchors = [...exact.keys()].sort((a, b) => width(a) - width(b));
  return newLines
    .map((line) => {
      if (line.trim() === '') return line;
      const own = indentOf(line);
      const body = line.slice(own.length);
      const mapped = exact.get(own);
      if (mapped !== undefined) return mapped + body;
      const anchor = anchors.filter((candidate) => width(candidate) <= width(own)).pop() ?? anchors[0];
      const levels = (width(own) - width(anchor)) / modelUnit;
      return indentation(width(exact.get(anchor)!) + levels * fileUnit.columns, fileUnit.tabs) + body;
    })
    .join('\n');
}

interface Unit {
  readonly tabs: boolean;
  /** Columns per level (TAB_COLUMNS for tabs). */
  readonly columns: number;
}

/** The file's unit: tabs when the matched lines are indented with tabs, else the step between its space indentations. */
function unitOfFile(matchedIndents: readonly string[], fileLines: () => readonly string[]): Unit {
  if (matchedIndents.some((indent) => indent.includes('\t'))) return { tabs: true, columns: TAB_COLUMNS };
  const step = commonStep(matchedIndents.map(width));
  if (step !== undefined) return { tabs: false, columns: step };
  const indents = fileLines()
    .filter((line) => line.trim() !== '')
    .map(indentOf);
  const tabbed = indents.filter((indent) => indent.startsWith('\t')).length;
  const spaced = indents.filter((indent) => indent.startsWith(' ')).length;
  if (tabbed > spaced) return { tabs: true, columns: TAB_COLUMNS };
  return { tabs: false, columns: commonStep(indents.filter((indent) => !indent.includes('\t')).map(width)) ?? TAB_COLUMNS };
}

/** The most common positive step between neighbouring widths (the smaller on a tie), or undefined when they never change. */
function commonStep(widths: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (let i = 1; i < widths.length; i += 1) {
    const step = Math.abs(widths[i] - widths[i - 1]);
    if (step > 0) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [step, count] of counts) {
    if (best === undefined || count > counts.get(best)! || (count === counts.get(best)! && step < best)) best = step;
  }
  return best;
}

function indentation(columns: number, tabs: boolean): string {
  const clamped = Math.max(0, columns);
  return tabs ? '\t'.repeat(Math.round(clamped / TAB_COLUMNS)) : ' '.repeat(Math.round(clamped));
}

function width(indent: string): number {
  let columns = 0;
  for (const char of indent) columns += char === '\t' ? TAB_COLUMNS : 1;
  return columns;
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
