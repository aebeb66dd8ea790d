import { applySpans, locate, NEAREST_MAX_CHARS, TOLERANT_MAX_LINES_PER_CALL, type NearestRegion } from '../../src/domain/text-match.js';

function edit(content: string, oldStr: string, newStr: string, replaceAll = false): { kind: string; text: string } {
  const located = locate(content, { oldStr, newStr, replaceAll });
  if (located.found !== 'spans') throw new Error(`not placed: ${JSON.stringify(located)}`);
  return { kind: located.kind, text: applySpans(content, located.spans) };
}

describe('locate: where an old_str is', () => {
  it('an exact occurrence wins, even where a whitespace-tolerant reading would also match', () => {
    expect(edit('  a = 1\na = 1 \n', 'a = 1 ', 'b')).toEqual({ kind: 'exact', text: '  a = 1\nb\n' });
  });

  it('tabs in the file, spaces in old_str: the block is found and new_str gets the tabs', () => {
    const file = 'func f() {\n\tif x {\n\t\ty()\n\t}\n}\n';
    const out = edit(file, '    if x {\n        y()\n    }', '    if x {\n        z()\n        w()\n    }');
    expect(out).toEqual({ kind: 'whitespace_tolerant', text: 'func f() {\n\tif x {\n\t\tz()\n\t\tw()\n\t}\n}\n' });
  });

  it('a re-indented block keeps new_str indentation relative to old_str first line, shifted to the file', () => {
    const file = 'class A {\n        run() {\n            go();\n        }\n}\n';
    const out = edit(file, 'run() {\n    go();\n}', 'run() {\n    go();\n        deeper();\n}');
    expect(out.text).toBe('class A {\n        run() {\n            go();\n                deeper();\n        }\n}\n');
    expect(out.kind).toBe('whitespace_tolerant');
  });

  it('trailing spaces in the file, none in old_str', () => {
    expect(edit('x = 1;   \ny = 2;\t\n', 'x = 1;\ny = 2;', 'x = 3;\ny = 4;')).toEqual({ kind: 'whitespace_tolerant', text: 'x = 3;\ny = 4;\n' });
  });

  it('a CRLF file edited with an LF old_str ending in a newline keeps CRLF and the lines after', () => {
    expect(edit('a  \r\nb\r\nc\r\n', 'a\nb\n', 'A\nB\n')).toEqual({ kind: 'whitespace_tolerant', text: 'A\r\nB\r\nc\r\n' });
  });

  it('two tolerant regions: several, with their first lines; replace_all replaces both', () => {
    const file = 'if a:\n    pass\nx\nif a:\n  pass\n';
    expect(locate(file, { oldStr: 'if a:\n\tpass', newStr: '', replaceAll: false })).toEqual({ found: 'several', kind: 'whitespace_tolerant', count: 2, lines: [1, 4] });
    expect(edit(file, 'if a:\n\tpass', 'if b:\n\tpass', true).text).toBe('if b:\n    pass\nx\nif b:\n  pass\n');
  });

  it('several exact occurrences are counted and the first 20 named by line', () => {
    expect(locate('x\ny\nx\n', { oldStr: 'x', newStr: '', replaceAll: false })).toEqual({ found: 'several', kind: 'exact', count: 2, lines: [1, 3] });
    const many = locate('x x\n'.repeat(30), { oldStr: 'x', newStr: '', replaceAll: false });
    expect(many).toEqual({ found: 'several', kind: 'exact', count: 60, lines: [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10] });
  });

  it('an old_str of only whitespace is never matched tolerantly', () => {
    expect(locate('a\n\n  \nb\n', { oldStr: ' \n\t', newStr: 'x', replaceAll: false })).toMatchObject({ found: 'none' });
  });

  it('no match: the most similar region (mean line similarity) with its range and at most 10 lines', () => {
    const file = ['alpha()', 'beta()', 'function total(items) {', '  let sum = 0;', '  for (const item of items) sum += item.price;', '  return sum;', '}', 'gamma()'].join('\n');
    const located = locate(file, { oldStr: 'function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.cost;\n  return sum;\n}', newStr: '', replaceAll: false });
    expect(located).toMatchObject({ found: 'none', nearest: { firstLine: 3, lastLine: 7 } });
    if (located.found !== 'none') throw new Error('unreachable');
    expect((located.nearest as NearestRegion).similarity).toBeGreaterThan(0.9);
    expect((located.nearest as NearestRegion).lines).toEqual(file.split('\n').slice(2, 7));
    const long = Array.from({ length: 30 }, (_, i) => `line number ${i}`).join('\n');
    const wanted = Array.from({ length: 15 }, (_, i) => `line numbr ${i + 5}`).join('\n');
    const far = locate(long, { oldStr: wanted, newStr: '', replaceAll: false });
    expect(far).toMatchObject({ found: 'none', nearest: { firstLine: 6, lastLine: 20 } });
    if (far.found === 'none') expect((far.nearest as NearestRegion).lines).toHaveLength(10);
  });

  it('no region is searched for in a file of more than 50,000 lines (a NO_MATCH stays cheap)', () => {
    const lines = Array.from({ length: 50_001 }, (_, i) => `entry ${i}`);
    expect(locate(lines.join('\n'), { oldStr: 'entry 7x', newStr: '', replaceAll: false })).toEqual({ found: 'none', nearest: 'too_large' });
    expect(locate(lines.slice(0, 50_000).join('\n'), { oldStr: 'entry 7x', newStr: '', replaceAll: false })).toMatchObject({ found: 'none', nearest: { firstLine: 8 } });
  });

  it('no region is searched for past NEAREST_MAX_CHARS characters compared, however few the lines (issue 33)', () => {
    // The case: a 150 KB file and a 400 KB one-line old_str took 26.5 s.
    const file = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const started = Date.now();
    expect(locate(file, { oldStr: 'y'.repeat(400_000), newStr: '', replaceAll: false })).toEqual({ found: 'none', nearest: 'too_large' });
    expect(Date.now() - started).toBeLessThan(2000);
    // Just under the bound, the search runs: 400 one-line windows of 50 characters against an old_str line near it.
    const small = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    expect(locate(small, { oldStr: `line 7 ${'x'.repeat(39)}y`, newStr: '', replaceAll: false })).toMatchObject({ found: 'none', nearest: { firstLine: 8 } });
    const wide = 'z'.repeat(Math.ceil(NEAREST_MAX_CHARS / 400));
    expect(locate(small, { oldStr: wide, newStr: '', replaceAll: false })).toEqual({ found: 'none', nearest: 'too_large' });
  });

  it('the whitespace-tolerant search takes the file lines it goes through from the call budget, and refuses past it (issue 33)', () => {
    const budget = { remainingLines: 5 };
    expect(locate('  a\n  b\nc\n', { oldStr: 'a\nb', newStr: 'x\ny', replaceAll: false }, budget)).toMatchObject({ found: 'spans', kind: 'whitespace_tolerant' });
    expect(budget.remainingLines).toBe(2);
    // An exact match costs nothing from it.
    expect(locate('  a\n  b\nc\n', { oldStr: 'c', newStr: 'd', replaceAll: false }, budget)).toMatchObject({ found: 'spans', kind: 'exact' });
    expect(budget.remainingLines).toBe(2);
    expect(locate('  a\n  b\nc\n', { oldStr: 'b \nc', newStr: '', replaceAll: false }, budget)).toEqual({ found: 'too_many_lines', lines: 3 });
    expect(budget.remainingLines).toBe(2);
  });

  it('the whitespace-tolerant search is linear: 1M one-character lines and a 2,000-line old_str (issue 33)', () => {
    const file = `${Array(1_000_000).fill('a').join('\n')}\n`;
    // Matches nowhere, but each of its first 1,999 lines matches everywhere: window by window that was 2e9 compares.
    const old = `${Array(1999).fill(' a').join('\n')}\n b`;
    const started = Date.now();
    expect(locate(file, { oldStr: old, newStr: '', replaceAll: false })).toEqual({ found: 'none', nearest: 'too_large' });
    expect(Date.now() - started).toBeLessThan(5000);
    // Overlapping candidates: the leftmost region wins and the next starts after it, as before.
    expect(locate('a\na\na\na\na\n', { oldStr: ' a\n a', newStr: 'b', replaceAll: true })).toMatchObject({ found: 'spans', spans: [{ at: 0 }, { at: 4 }] });
    expect(locate('a\nb\na\nb\na\nc\n', { oldStr: ' a\n b\n a\n c', newStr: '', replaceAll: false })).toMatchObject({ found: 'spans', spans: [{ at: 4 }] });
    expect(TOLERANT_MAX_LINES_PER_CALL).toBeLessThan(1_000_000);
  });

  it('no match and nothing alike: no region is offered', () => {
    expect(locate('completely\nunrelated\n', { oldStr: 'zzz qqq', newStr: '', replaceAll: false })).toEqual({ found: 'none', nearest: undefined });
  });
});
