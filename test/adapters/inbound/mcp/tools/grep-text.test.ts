import { grepText } from '../../../../../src/adapters/inbound/mcp/tools/grep-text.js';
import type { GrepMatch } from '../../../../../src/domain/search/file-search.js';

function match(file: string, line_number: number, line_content: string, context_before: string[] = [], context_after: string[] = []): GrepMatch {
  return { file, line_number, line_content, context_before, context_after };
}

const clean = { files_searched: 3, truncated: false, timed_out: false };

describe('grep text block (issue 19, as ripgrep prints it)', () => {
  it('prints path:line:text for each match and no separators without context', () => {
    const text = grepText({ ...clean, matches: [match('src/a.ts', 3, 'const "x" = 1;'), match('src/a.ts', 9, 'x()'), match('b.ts', 1, 'x')] });
    expect(text).toBe('src/a.ts:3:const "x" = 1;\nsrc/a.ts:9:x()\nb.ts:1:x');
  });

  it('prints context as path-line-text, merges overlapping context, and puts -- between groups and files', () => {
    const text = grepText({
      ...clean,
      matches: [
        match('a.ts', 2, 'hit two', ['one'], ['three']),
        match('a.ts', 3, 'three', ['hit two'], ['four']),
        match('a.ts', 10, 'hit ten', ['nine'], []),
        match('b.ts', 1, 'hit', [], ['next']),
      ],
    });
    expect(text.split('\n')).toEqual(['a.ts-1-one', 'a.ts:2:hit two', 'a.ts:3:three', 'a.ts-4-four', '--', 'a.ts-9-nine', 'a.ts:10:hit ten', '--', 'b.ts:1:hit', 'b.ts-2-next']);
  });

  it('ends with one line for truncated, timed_out and ignored when they apply', () => {
    const text = grepText({ matches: [match('a', 1, 'x')], files_searched: 1, truncated: true, timed_out: true, ignored: 7 });
    const last = text.split('\n').at(-1);
    expect(last).toMatch(/^\[truncated: 1 matches shown, more exist .*; timed_out: .*; ignored: 7 entries skipped by ignore files/);
    expect(grepText({ ...clean, matches: [match('a', 1, 'x')], ignored: 0 })).toBe('a:1:x');
  });

  it('says so when nothing matched', () => {
    expect(grepText({ ...clean, matches: [] })).toBe('no matches (3 files searched)');
  });
});
