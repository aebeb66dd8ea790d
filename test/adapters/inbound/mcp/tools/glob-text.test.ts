import { globText } from '../../../../../src/adapters/inbound/mcp/tools/glob-text.js';
import type { EntryKind } from '../../../../../src/domain/ports/file-system.port.js';
import type { GlobMatch } from '../../../../../src/domain/tools/glob.js';

function entry(path: string, type: EntryKind = 'file'): GlobMatch {
  return { path, type, size: 12, modified_at: '2025-06-01T12:00:00.000Z' };
}

const clean = { truncated: false, timed_out: false };

describe('glob text block (issue 31.2, as rg --files prints a listing)', () => {
  it('prints one path a line, a directory with a trailing slash, and no size, time or JSON', () => {
    const text = globText({ ...clean, matches: [entry('src/a.ts'), entry('src/lib', 'directory'), entry('src/link', 'symlink'), entry('src/fifo', 'other')] });
    expect(text).toBe('src/a.ts\nsrc/lib/\nsrc/link\nsrc/fifo');
  });

  it('writes a path a line cannot hold as it is as a JSON string', () => {
    const text = globText({
      ...clean,
      matches: [entry('a\nb.ts'), entry('tab\there'), entry('"quoted".ts'), entry('[truncated: x]'), entry('del\u007f'), entry('dir\rname', 'directory'), entry('plain "inner" [x].ts')],
    });
    expect(text.split('\n')).toEqual(['"a\\nb.ts"', '"tab\\there"', '"\\"quoted\\".ts"', '"[truncated: x]"', '"del\u007f"', '"dir\\rname"/', 'plain "inner" [x].ts']);
  });

  it.each([['a\nb.ts'], ['tab\there'], ['"quoted".ts'], ['[truncated: x]'], ['del\u007f'], ['cr\rname']])('quotes %j alone among paths that need nothing', (unsafe) => {
    const text = globText({ ...clean, matches: [entry('src/a.ts'), entry(unsafe), entry('src/lib', 'directory')] });
    expect(text.split('\n')).toEqual(['src/a.ts', JSON.stringify(unsafe), 'src/lib/']);
  });

  it('ends with one line for truncated, timed_out and ignored when they apply', () => {
    const text = globText({ matches: [entry('a'), entry('b')], truncated: true, timed_out: true, ignored: 1 });
    expect(text.split('\n')).toEqual([
      'a',
      'b',
      '[truncated: 2 entries shown, more match (narrow the pattern or path, or raise max_results); timed_out: the search stopped at its deadline, results are partial; ignored: 1 entry skipped by ignore files (ignore: "none" searches them)]',
    ]);
    expect(globText({ ...clean, matches: [entry('a')], ignored: 0 })).toBe('a');
  });

  it('says so when nothing matched', () => {
    expect(globText({ ...clean, matches: [] })).toBe('no matches');
    expect(globText({ ...clean, matches: [], ignored: 3 })).toBe('no matches\n[ignored: 3 entries skipped by ignore files (ignore: "none" searches them)]');
  });
});
