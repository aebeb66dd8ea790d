import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { Clock } from '../../../src/domain/ports/clock.port.js';
import type { RegexEngine } from '../../../src/domain/ports/regex-engine.port.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { MAX_LINE_CHARS } from '../../../src/domain/search/line-reader.js';
import { matchResultBytes } from '../../../src/domain/search/file-search.js';
import { Grep, type GrepInput } from '../../../src/domain/tools/grep.js';
import { domainError, rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { recordingReads } from './file-tools-harness.js';
import { searchSettings, SteppingClock } from './search-harness.js';

const settings = searchSettings(50);

let fs: InMemoryFileSystem;

function grepWith(options: { clock?: Clock; tools?: string[]; maxResultsLimit?: number } = {}): Grep {
  const access = rootAccess(makeRoot('workspace', '/ws', options.tools ?? ['*']));
  const limited = searchSettings(options.maxResultsLimit ?? settings.search.maxResultsLimit);
  return new Grep(fs, options.clock ?? new SteppingClock(0), new Re2RegexEngine(), limited, access);
}

const grep = (input: Omit<GrepInput, 'root'>, grepper = grepWith()) => grepper.execute({ root: 'workspace', ...input });

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

/** The file system whose tree scans never read contents ahead, so grep opens every file itself. */
function withoutReadAhead(files: FileSystemPort): FileSystemPort {
  const port: FileSystemPort = Object.create(files);
  port.scanTree = (path, options) => files.scanTree(path, { ...options, readContents: undefined });
  return port;
}

/**
 * The in-memory file system, recording which files were opened and closed (by name, in order);
 * `hold(name)` may return a promise that the opening of that file waits for.
 */
function trackedFiles(hold: (name: string) => Promise<void> | undefined = () => undefined) {
  const opened: string[] = [];
  const closed: string[] = [];
  const port = withoutReadAhead(fs);
  port.openFile = async (path: RootPath) => {
    const name = path.segments.join('/');
    await hold(name);
    const file = await fs.openFile(path);
    opened.push(name);
    return { stat: file.stat, read: (at, length) => file.read(at, length), close: () => (closed.push(name), file.close()) };
  };
  const grepper = (clock: Clock = new SteppingClock(0)) =>
    new Grep(port, clock, new Re2RegexEngine(), settings, rootAccess(makeRoot('workspace', '/ws', ['*'])));
  return { opened, closed, grepper };
}

/** Resolves once `done()` is true, looking between timer ticks; at the latest after `limitMs`. */
async function until(done: () => boolean, limitMs = 1000): Promise<void> {
  const started = Date.now();
  while (!done() && Date.now() - started < limitMs) await new Promise((resolve) => setTimeout(resolve, 1));
}

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
});

describe('Grep', () => {
  it('E2E-048: reports the match with its line number and context lines', async () => {
    const lines = numbered(15);
    lines[9] = '// TODO: fix this';
    fs.seedFile('/ws/code.go', `${lines.join('\n')}\n`);

    const result = await grep({ pattern: 'TODO', context_lines: 2 });
    expect(result).toEqual({
      matches: [
        {
          file: 'code.go',
          line_number: 10,
          line_content: '// TODO: fix this',
          context_before: ['line 8', 'line 9'],
          context_after: ['line 11', 'line 12'],
        },
      ],
      total_matches: 1,
      files_searched: 1,
      truncated: false,
      timed_out: false,
      ignored: 0,
    });
  });

  it('clips context at the start and end of a file, and overlapping contexts repeat lines', async () => {
    fs.seedFile('/ws/a.txt', 'hit one\nmiddle\nhit two');

    const { matches } = await grep({ pattern: 'hit', context_lines: 3 });
    expect(matches.map((m) => [m.line_number, m.context_before, m.context_after])).toEqual([
      [1, [], ['middle', 'hit two']],
      [3, ['hit one', 'middle'], []],
    ]);
  });

  it('lowers context_lines above 50 to 50, as max_results is lowered to its ceiling', async () => {
    fs.seedFile('/ws/a.txt', numbered(300).join('\n'));

    const [match] = (await grep({ pattern: '^line 150$', context_lines: 1e9 })).matches;
    expect(match.context_before).toEqual(numbered(149).slice(-50));
    expect(match.context_after).toEqual(numbered(200).slice(150));
  });

  it('cuts line_content and context lines after 2000 characters (code points), saying how long the line was', async () => {
    const astral = '\u{1F600}'.repeat(2500);
    fs.seedFile('/ws/long.txt', [astral, `hit ${'y'.repeat(4000)}`, 'z'.repeat(2000)].join('\n'));

    const [match] = (await grep({ pattern: '^hit', context_lines: 1 })).matches;
    expect(match.line_content).toBe(`hit ${'y'.repeat(1996)}... [truncated, 4004 chars total]`);
    expect(match.context_before).toEqual([`${'\u{1F600}'.repeat(2000)}... [truncated, 2500 chars total]`]);
    expect(match.context_after).toEqual(['z'.repeat(2000)]);
  });

  it('stops with truncated=true once the returned text reaches its budget', async () => {
    const wide = (char: string, count: number) => Array.from({ length: count }, () => char.repeat(3000));
    fs.seedFile('/ws/wide.txt', [...wide('y', 60), ...wide('x', 200)].join('\n'));

    // A match carries up to 101 lines cut to ~2000 characters (~206 KB of JSON): a few dozen fill the 4 MiB budget.
    const result = await grep({ pattern: '^x', context_lines: 50, max_results: 1000 }, grepWith({ maxResultsLimit: 1000 }));
    expect(result.truncated).toBe(true);
    expect(result.total_matches).toBeGreaterThan(10);
    expect(result.total_matches).toBeLessThan(45);
    const lines = result.matches.flatMap((m) => [m.line_content, ...m.context_before, ...m.context_after]);
    expect(result.matches.reduce((bytes, m) => bytes + matchResultBytes(m), 0)).toBeLessThanOrEqual(settings.maxResultBytes);
    // The budget counts the result as it is sent: compact JSON, escaped, in UTF-8 bytes.
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(settings.maxResultBytes);
    expect(lines.every((line) => line.endsWith('... [truncated, 3000 chars total]'))).toBe(true);
  });

  it('E2E-049: case_insensitive matches every spelling', async () => {
    fs.seedFile('/ws/a.log', 'an Error occurred\n');
    fs.seedFile('/ws/b.log', 'quiet\nerror: disk\n');
    fs.seedFile('/ws/c.log', 'FATAL ERROR\n');

    const insensitive = await grep({ pattern: 'error', case_insensitive: true });
    expect(insensitive.matches.map((m) => [m.file, m.line_number])).toEqual([
      ['a.log', 1],
      ['b.log', 2],
      ['c.log', 1],
    ]);
    const sensitive = await grep({ pattern: 'error' });
    expect(sensitive.matches.map((m) => m.file)).toEqual(['b.log']);
  });

  it('E2E-050: glob_filter without a slash matches file names at any depth', async () => {
    fs.seedFile('/ws/file.go', '// TODO go');
    fs.seedFile('/ws/file.py', '# TODO py');
    fs.seedFile('/ws/pkg/deep/other.go', '// TODO deep');

    const result = await grep({ pattern: 'TODO', glob_filter: '*.go' });
    expect(result.matches.map((m) => m.file)).toEqual(['file.go', 'pkg/deep/other.go']);
    expect(result.files_searched).toBe(2);
  });

  it('glob_filter with a slash matches the path below the search directory; dot files included', async () => {
    fs.seedFile('/ws/src/pkg/a.go', 'TODO');
    fs.seedFile('/ws/src/b.go', 'TODO');
    fs.seedFile('/ws/src/pkg/.hidden.go', 'TODO');

    const result = await grep({ pattern: 'TODO', path: 'src', glob_filter: 'pkg/*.go' });
    expect(result.matches.map((m) => m.file)).toEqual(['src/pkg/.hidden.go', 'src/pkg/a.go']);
  });

  it('an invalid glob_filter is INVALID_ARGUMENT naming glob_filter', async () => {
    const error = await domainError(grep({ pattern: 'x', glob_filter: '*.[ch' }));
    expect(error.toClientText()).toBe("INVALID_ARGUMENT: invalid glob_filter: unclosed '[' in glob (root: workspace)");
    const negated = await domainError(grep({ pattern: 'x', glob_filter: '!(*.go)' }));
    expect(negated.toClientText()).toBe('INVALID_ARGUMENT: invalid glob_filter: negated extglob !(...) is not supported (root: workspace)');
  });

  it('matches a backtracking-prone glob_filter in linear time (RE2)', async () => {
    fs.seedFile(`/ws/${'a'.repeat(40)}b`, 'x');
    fs.seedFile('/ws/deep/yd', 'x');

    const started = Date.now();
    expect((await grep({ pattern: 'x', glob_filter: '+(*)d' })).matches.map((m) => m.file)).toEqual(['deep/yd']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('E2E-051: no match gives an empty result', async () => {
    fs.seedFile('/ws/one.txt', 'nothing to see\n');
    fs.seedFile('/ws/dir/two.txt', 'still nothing\n');

    expect(await grep({ pattern: 'ZZZZUNIQUEZZZZZ' })).toEqual({
      matches: [],
      total_matches: 0,
      files_searched: 2,
      truncated: false,
      timed_out: false,
      ignored: 0,
    });
  });

  it("E2E-052: an invalid regex is INVALID_ARGUMENT with RE2's reason, before any file is read", async () => {
    const error = await domainError(grep({ pattern: '[invalid' }));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: invalid pattern: missing ]: [invalid (root: workspace)');
  });

  it('returns matches in walk order: depth-first, names in code point order', async () => {
    for (const name of ['\u{1F600}.txt', '\uFFFD.txt', 'a/z.txt', 'a-b.txt', 'B.txt']) fs.seedFile(`/ws/${name}`, 'hit\n');

    const result = await grep({ pattern: 'hit' });
    expect(result.matches.map((m) => m.file)).toEqual(['B.txt', 'a/z.txt', 'a-b.txt', '\uFFFD.txt', '\u{1F600}.txt']);
  });

  it('E2E-053: stops at max_results with truncated=true', async () => {
    for (let i = 0; i < 210; i += 1) fs.seedFile(`/ws/files/f${String(i).padStart(3, '0')}.txt`, 'a match here\n');

    const result = await grep({ pattern: 'match', max_results: 5 });
    expect(result.matches.map((m) => m.file)).toEqual(['f000', 'f001', 'f002', 'f003', 'f004'].map((f) => `files/${f}.txt`));
    expect(result).toMatchObject({ total_matches: 5, truncated: true, timed_out: false, files_searched: 6 });
  });

  it('is not truncated when the matches exactly fill max_results', async () => {
    fs.seedFile('/ws/a.txt', 'match\nmatch\n');

    expect(await grep({ pattern: 'match', max_results: 2 })).toMatchObject({ total_matches: 2, truncated: false });
  });

  it('still completes the context of the last match kept when truncating', async () => {
    fs.seedFile('/ws/a.txt', 'match 1\nafter\nmatch 2\nlast\n');

    const result = await grep({ pattern: 'match', max_results: 1, context_lines: 2 });
    expect(result.matches).toEqual([expect.objectContaining({ line_number: 1, context_after: ['after', 'match 2'] })]);
    expect(result.truncated).toBe(true);
  });

  it('OQ-001: a max_results above the ceiling is clamped to it; defaults come from settings', async () => {
    fs.seedFile('/ws/many.txt', Array.from({ length: 120 }, () => 'hit').join('\n'));

    const above = await grep({ pattern: 'hit', max_results: 10_000 });
    expect(above).toMatchObject({ total_matches: settings.search.maxResultsLimit, truncated: true });
    const byDefault = await grep({ pattern: 'hit' });
    expect(byDefault.total_matches).toBe(Math.min(settings.search.defaultMaxResults, settings.search.maxResultsLimit));
  });

  it('NFR-011: rejects nonsensical limits, naming the root', async () => {
    for (const input of [{ max_results: 0 }, { context_lines: -1 }, { timeout_seconds: 0 }, { max_depth: 0 }, { max_depth: 1.5 }]) {
      const error = await domainError(grep({ pattern: 'x', ...input }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(/ \(root: workspace\)$/);
    }
    expect((await domainError(grep({ pattern: 'x', max_results: 0 }))).toClientText()).toBe(
      'INVALID_ARGUMENT: max_results must be a positive integer, got 0 (root: workspace)',
    );
    expect((await domainError(grep({ pattern: '' }))).message).toBe('pattern must not be empty (root: workspace)');
  });

  it('E2E-054: skips files with a NUL byte in the first 8 KB', async () => {
    fs.seedFile('/ws/blob.bin', new Uint8Array([...new TextEncoder().encode('needle\n'), 0, 1, 2, 0, 10]));
    fs.seedFile('/ws/notes.txt', 'a needle in text\n');
    const lateNul = new Uint8Array(9000).fill(0x61);
    lateNul.set(new TextEncoder().encode('needle\n'), 0);
    lateNul[8999] = 0;
    fs.seedFile('/ws/late-nul.txt', lateNul);

    const result = await grep({ pattern: 'needle' });
    expect(result.matches.map((m) => m.file)).toEqual(['late-nul.txt', 'notes.txt']);
    expect(result.files_searched).toBe(2);
  });

  it('gives file paths relative to the root when searching a subdirectory', async () => {
    fs.seedFile('/ws/src/pkg/util.go', 'TODO');
    fs.seedFile('/ws/other.go', 'TODO');

    const result = await grep({ pattern: 'TODO', path: 'src' });
    expect(result.matches.map((m) => m.file)).toEqual(['src/pkg/util.go']);
  });

  it('searches a single file named by path (its name need not match glob_filter)', async () => {
    fs.seedFile('/ws/notes.md', 'one\nTODO two\n');

    const result = await grep({ pattern: 'TODO', path: 'notes.md', glob_filter: '*.go' });
    expect(result.matches).toEqual([expect.objectContaining({ file: 'notes.md', line_number: 2 })]);
  });

  it('max_depth 1 searches only the files directly in path', async () => {
    fs.seedFile('/ws/top.txt', 'hit');
    fs.seedFile('/ws/sub/low.txt', 'hit');

    expect((await grep({ pattern: 'hit', max_depth: 1 })).matches.map((m) => m.file)).toEqual(['top.txt']);
    expect((await grep({ pattern: 'hit', max_depth: 2 })).matches.map((m) => m.file)).toEqual(['sub/low.txt', 'top.txt']);
  });

  it('NFR-009: follows no symlink while walking, in or out of the root', async () => {
    fs.seedFile('/ws/real/file.txt', 'secret hit');
    fs.seedSymlink('/ws/dir-link', 'real');
    fs.seedSymlink('/ws/file-link', 'real/file.txt');
    fs.seedSymlink('/ws/escape', '/outside');
    fs.seedFile('/outside/passwd', 'secret hit');

    const result = await grep({ pattern: 'secret' });
    expect(result.matches.map((m) => m.file)).toEqual(['real/file.txt']);
    expect(result.files_searched).toBe(1);
  });

  it('starts through an in-root link but refuses one that leaves the root', async () => {
    fs.seedFile('/ws/real/file.txt', 'hit');
    fs.seedSymlink('/ws/alias', 'real');
    fs.seedSymlink('/ws/escape', '/outside');
    fs.seedFile('/outside/file.txt', 'hit');

    expect((await grep({ pattern: 'hit', path: 'alias' })).matches.map((m) => m.file)).toEqual(['alias/file.txt']);
    expect((await domainError(grep({ pattern: 'hit', path: 'escape' }))).code).toBe('ACCESS_DENIED');
  });

  it('refuses a path above the root, a missing path, an unknown root and a root without grep', async () => {
    expect((await domainError(grep({ pattern: 'x', path: '../etc' }))).code).toBe('ACCESS_DENIED');
    expect((await domainError(grep({ pattern: 'x', path: 'nope' }))).toClientText()).toBe('NOT_FOUND: path not found: nope (root: workspace)');
    expect((await domainError(grepWith().execute({ root: 'other', pattern: 'x' }))).code).toBe('UNKNOWN_ROOT');
    const denied = await domainError(grep({ pattern: '[invalid' }, grepWith({ tools: ['glob'] })));
    expect(denied.toClientText()).toBe('TOOL_NOT_ALLOWED: tool grep not allowed on root workspace');
  });

  it('streams a file bigger than one read chunk: line numbers, CRLF and a last line without newline', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `row ${i + 1} ${'.'.repeat(20)}`);
    lines[19_999] = 'final hit';
    fs.seedFile('/ws/big.txt', `${lines.slice(0, 10).join('\r\n')}\r\n${lines.slice(10).join('\n')}`);

    const result = await grep({ pattern: '^row 5 |hit$', context_lines: 1 });
    expect(result.matches).toEqual([
      { file: 'big.txt', line_number: 5, line_content: lines[4], context_before: [lines[3]], context_after: [lines[5]] },
      { file: 'big.txt', line_number: 20_000, line_content: 'final hit', context_before: [lines[19_998]], context_after: [] },
    ]);
  });

  it('decodes multi-byte UTF-8 split between the sniffed first 8 KB and the next read', async () => {
    const filler = 'x'.repeat(8 * 1024 - 1);
    fs.seedFile('/ws/utf8.txt', `${filler}é€\nnext`);

    const result = await grep({ pattern: 'é€$' });
    expect(result.matches.map((m) => m.line_number)).toEqual([1]);
  });

  it('reads a small file once: the binary sniff is also its first chunk of lines', async () => {
    fs.seedFile('/ws/a.txt', 'one\nTODO two\n');
    const { port, readLengths } = recordingReads(fs);
    const grepper = new Grep(withoutReadAhead(port), new SteppingClock(0), new Re2RegexEngine(), settings, rootAccess(makeRoot('workspace', '/ws', ['*'])));

    const { matches } = await grepper.execute({ root: 'workspace', pattern: 'TODO' });
    expect(matches.map((m) => m.line_number)).toEqual([2]);
    expect(readLengths).toHaveLength(1);
  });

  it('searches only the first MAX_LINE_CHARS characters of an overlong line', async () => {
    fs.seedFile('/ws/minified.js', `start ${'y'.repeat(MAX_LINE_CHARS)} tail-marker\nstart again`);

    const result = await grep({ pattern: 'start|tail-marker' });
    expect(result.matches.map((m) => m.line_number)).toEqual([1, 2]);
    expect(result.matches[0].line_content).toBe(`start ${'y'.repeat(1994)}... [truncated, ${MAX_LINE_CHARS} chars total]`);
    expect(result.matches[1].line_content).toBe('start again');
    expect((await grep({ pattern: 'tail-marker' })).total_matches).toBe(0);
  });

  it('refuses a pattern or glob_filter longer than 1000 characters, naming it: a long pattern on a long line is slow', async () => {
    fs.seedFile('/ws/line.txt', `${'a'.repeat(20_000)}b\n`);

    const pattern = await domainError(grep({ pattern: 'a'.repeat(1001), path: 'line.txt' }));
    expect(pattern.toClientText()).toBe('INVALID_ARGUMENT: invalid pattern: pattern longer than 1000 characters (root: workspace)');
    const filter = await domainError(grep({ pattern: 'a', glob_filter: '*'.repeat(1001) }));
    expect(filter.toClientText()).toBe('INVALID_ARGUMENT: invalid glob_filter: pattern longer than 1000 characters (root: workspace)');
    expect((await grep({ pattern: 'a'.repeat(1000), path: 'line.txt' })).total_matches).toBe(1);
  });

  it('finishes a pathological pattern on a 100k-character line quickly (RE2 is linear)', async () => {
    fs.seedFile('/ws/evil.txt', `${'a'.repeat(100_000)}!\n${'a'.repeat(100_000)}\n`);

    const result = await grep({ pattern: '(a+)+$', timeout_seconds: 5 }, grepWith({ clock: new SteppingClock(1) }));
    expect(result.matches.map((m) => m.line_number)).toEqual([2]);
    expect(result.timed_out).toBe(false);
  });

  it('E2E-079: a deadline passing between files returns the partial results with timed_out=true', async () => {
    for (let i = 0; i < 50; i += 1) fs.seedFile(`/ws/tree/log-${String(i).padStart(2, '0')}.txt`, 'needle\n');
    // Each look at the clock advances it 100 ms: the 1 s deadline passes after a handful of files.
    const clock = new SteppingClock(100);

    const result = await grep({ pattern: 'needle', timeout_seconds: 1 }, grepWith({ clock }));
    expect(result.timed_out).toBe(true);
    expect(result.truncated).toBe(false);
    expect(result.matches.length).toBeGreaterThan(0);
    expect(result.matches.length).toBeLessThan(50);
    expect(result.matches.length).toBe(result.files_searched);
  });

  it('E2E-079: a deadline passing inside one huge file stops mid-file', async () => {
    fs.seedFile('/ws/huge.log', Array.from({ length: 50_000 }, (_, i) => `needle ${i + 1}`).join('\n'));
    const clock = new SteppingClock(1000);

    // Every thousandth line matches; inside a file the clock is read only every thousand lines or so.
    const result = await grep({ pattern: '^needle \\d*000$', timeout_seconds: 3 }, grepWith({ clock }));
    expect(result).toMatchObject({ timed_out: true, truncated: false, files_searched: 1 });
    expect(result.total_matches).toBeGreaterThan(0);
    expect(result.total_matches).toBeLessThan(50);
  });

  it('stops at the deadline in a large tree where no file is searched (every name filtered out)', async () => {
    for (let i = 0; i < 600; i += 1) fs.seedFile(`/ws/d${i % 3}/f${i}.txt`, 'hit');
    // Ten minutes a look: the first look at the clock while passing over entries finds the deadline gone.
    const clock = new SteppingClock(600_000);
    const result = await grep({ pattern: 'hit', glob_filter: '*.none', timeout_seconds: 1 }, grepWith({ clock }));
    expect(result).toMatchObject({ timed_out: true, files_searched: 0, total_matches: 0 });
  });

  it('OQ-001: a timeout above the ceiling is clamped to it', async () => {
    fs.seedFile('/ws/a.txt', 'x');
    // One hour per look: only the clamped 600 s ceiling is short enough to expire before the first file.
    const clock = new SteppingClock(601_000);

    const result = await grep({ pattern: 'x', timeout_seconds: 86_400 }, grepWith({ clock }));
    expect(result).toMatchObject({ timed_out: true, files_searched: 0 });
  });

  describe('files the tree scan read ahead', () => {
    /** The in-memory file system, recording the files grep opened itself. */
    function countingOpens() {
      const opened: string[] = [];
      const port: FileSystemPort = Object.create(fs);
      port.openFile = async (path: RootPath) => {
        opened.push(path.segments.join('/'));
        return fs.openFile(path);
      };
      return { opened, port };
    }

    it('are searched without being opened again; a file over 256 KiB is opened and read in chunks', async () => {
      fs.seedFile('/ws/a.txt', 'hit a\n');
      fs.seedFile('/ws/sub/b.txt', 'miss\nhit b\n');
      fs.seedFile('/ws/big.txt', `${'x\n'.repeat(128 * 1024)}hit big\n`);
      const { opened, port } = countingOpens();
      const grepper = new Grep(port, new SteppingClock(0), new Re2RegexEngine(), settings, rootAccess(makeRoot('workspace', '/ws', ['*'])));

      const result = await grepper.execute({ root: 'workspace', pattern: 'hit' });
      expect(result.matches.map((m) => [m.file, m.line_number])).toEqual([['a.txt', 1], ['big.txt', 128 * 1024 + 1], ['sub/b.txt', 2]]);
      expect(opened).toEqual(['big.txt']);
    });

    it('give the same result as files grep opens itself: context, binary, CRLF, multi-byte text, filters, depth, limits', async () => {
      fs.seedFile('/ws/a.txt', 'one\r\ntwo hit\r\nthree\r\n');
      fs.seedFile('/ws/b.bin', new Uint8Array([104, 105, 116, 0, 1, 2]));
      fs.seedFile('/ws/c/d.txt', 'é hit €\nafter\n');
      fs.seedFile('/ws/c/e/f.md', 'hit deep\n');
      fs.seedFile('/ws/g.txt', Array.from({ length: 30 }, (_, i) => `hit ${i}`).join('\n'));
      fs.seedSymlink('/ws/link.txt', 'a.txt');
      const inputs: Omit<GrepInput, 'root'>[] = [
        { pattern: 'hit', context_lines: 1 },
        { pattern: 'hit$', glob_filter: '*.txt' },
        { pattern: 'hit', max_depth: 2 },
        { pattern: 'hit', max_results: 12 },
        { pattern: 'HIT', case_insensitive: true, path: 'c' },
      ];
      for (const input of inputs) {
        const readAhead = await grep(input);
        const opening = await grep(input, new Grep(withoutReadAhead(fs), new SteppingClock(0), new Re2RegexEngine(), settings, rootAccess(makeRoot('workspace', '/ws', ['*']))));
        expect({ input, result: readAhead }).toEqual({ input, result: opening });
      }
      expect((await grep({ pattern: 'hit', context_lines: 1 })).matches.map((m) => m.file)).toContain('c/d.txt');
    });

    it('find a first line behind a byte order mark, and invalid UTF-8 read as U+FFFD, as a line-by-line search does', async () => {
      fs.seedFile('/ws/bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('first line\nsecond\n')]));
      fs.seedFile('/ws/bad.txt', new Uint8Array([0x61, 0xff, 0x62, 0x0a]));
      expect((await grep({ pattern: '^first' })).matches.map((m) => [m.file, m.line_number])).toEqual([['bom.txt', 1]]);
      expect((await grep({ pattern: 'a\\x{FFFD}b' })).matches.map((m) => [m.file, m.line_content])).toEqual([['bad.txt', 'a\uFFFDb']]);
    });
  });

  describe('searches several files at once, with the result of a search one file at a time', () => {
    it('keeps walk order when a later file finishes first', async () => {
      for (const name of ['a.txt', 'b.txt', 'c.txt']) fs.seedFile(`/ws/${name}`, `hit in ${name}\n`);
      // a.txt opens only once c.txt has been searched and closed.
      const files = trackedFiles((name) => (name === 'a.txt' ? until(() => files.closed.includes('c.txt')) : undefined));

      const result = await grep({ pattern: 'hit' }, files.grepper());
      expect(files.closed.indexOf('c.txt')).toBeLessThan(files.closed.indexOf('a.txt'));
      expect(result.matches.map((m) => m.line_content)).toEqual(['hit in a.txt', 'hit in b.txt', 'hit in c.txt']);
      expect(result).toMatchObject({ files_searched: 3, truncated: false, timed_out: false });
    });

    it('truncates at max_results in walk order, counts only the files used, and closes those searched ahead', async () => {
      for (let i = 0; i < 30; i += 1) fs.seedFile(`/ws/f${String(i).padStart(2, '0')}.txt`, 'hit 1\nhit 2\n');
      const files = trackedFiles((name) => (name === 'f00.txt' ? until(() => files.closed.length >= 4) : undefined));

      const result = await grep({ pattern: 'hit', max_results: 5 }, files.grepper());
      expect(result.matches.map((m) => `${m.file}:${m.line_number}`)).toEqual(['f00.txt:1', 'f00.txt:2', 'f01.txt:1', 'f01.txt:2', 'f02.txt:1']);
      expect(result).toMatchObject({ total_matches: 5, truncated: true, files_searched: 3 });
      // Later files were searched ahead and their results dropped; every file opened was closed before the call returned.
      expect(files.opened.length).toBeGreaterThan(3);
      expect([...files.closed].sort()).toEqual([...files.opened].sort());
    });

    it('is not truncated by a file searched ahead when the earlier files leave exactly max_results', async () => {
      for (let i = 0; i < 3; i += 1) fs.seedFile(`/ws/f${i}.txt`, 'hit\n');
      fs.seedFile('/ws/f3.txt', 'nothing\n');

      expect(await grep({ pattern: 'hit', max_results: 3 })).toMatchObject({ total_matches: 3, truncated: false, files_searched: 4 });
    });

    it('keeps the text budget exact when it runs out in a later file', async () => {
      // Each match returns 101 lines of about 2000 characters: a.txt takes 10 matches, b.txt fills the budget.
      const wide = (count: number) => Array.from({ length: count }, (_, i) => `${i % 101 === 50 ? 'x' : 'y'}${'.'.repeat(2999)}`);
      fs.seedFile('/ws/a.txt', wide(101 * 10).join('\n'));
      fs.seedFile('/ws/b.txt', wide(101 * 40).join('\n'));
      fs.seedFile('/ws/c.txt', 'x\n');

      const result = await grep({ pattern: '^x', context_lines: 50, max_results: 1000 }, grepWith({ maxResultsLimit: 1000 }));
      const text = result.matches.reduce((bytes, m) => bytes + matchResultBytes(m), 0);
      const nextMatch = matchResultBytes({ ...result.matches[0], context_after: [] });
      expect(result).toMatchObject({ truncated: true, files_searched: 2 });
      expect(result.matches.filter((m) => m.file === 'a.txt')).toHaveLength(10);
      // Only the context after the last match may be cut by the budget.
      expect(result.matches.slice(0, -1).every((m) => m.context_before.length === 50 && m.context_after.length === 50)).toBe(true);
      expect(text).toBeLessThanOrEqual(settings.maxResultBytes);
      expect(text + nextMatch).toBeGreaterThan(settings.maxResultBytes - 256);
    });

    it('E2E-079: after the deadline starts no file, uses the files started before it, in walk order', async () => {
      for (let i = 0; i < 50; i += 1) fs.seedFile(`/ws/log-${String(i).padStart(2, '0')}.txt`, 'needle\n');
      // log-00 is still opening when the deadline passes: its result is used all the same, and first.
      const files = trackedFiles((name) => (name === 'log-00.txt' ? until(() => files.closed.length >= 3) : undefined));

      const result = await grep({ pattern: 'needle', timeout_seconds: 1 }, files.grepper(new SteppingClock(100)));
      expect(result).toMatchObject({ timed_out: true, truncated: false });
      const used = Array.from({ length: result.files_searched }, (_, i) => `log-${String(i).padStart(2, '0')}.txt`);
      expect(result.matches.map((m) => m.file)).toEqual(used);
      expect(result.files_searched).toBeGreaterThan(1);
      expect(result.files_searched).toBeLessThan(50);
      expect([...files.closed].sort()).toEqual([...files.opened].sort());
    });

    it('raises an error of a file only when its turn comes, after closing the files searched ahead', async () => {
      fs.seedFile('/ws/a.txt', 'hit\nhit\n');
      fs.seedFile('/ws/b.txt', 'hit\n');
      for (let i = 0; i < 5; i += 1) fs.seedFile(`/ws/c${i}.txt`, 'hit\n');
      const failing = new Error('disk on fire');
      const files = trackedFiles((name) => (name === 'b.txt' ? Promise.reject(failing) : undefined));

      const stoppedBefore = await grep({ pattern: 'hit', max_results: 1 }, files.grepper());
      expect(stoppedBefore).toMatchObject({ total_matches: 1, truncated: true, files_searched: 1 });
      await expect(grep({ pattern: 'hit' }, files.grepper())).rejects.toBe(failing);
      expect([...files.closed].sort()).toEqual([...files.opened].sort());
    });
  });
});

describe('Grep: a whole small file is looked at once before it is split into lines', () => {
  const engine = new Re2RegexEngine();
  /** The engine, counting the line-by-line tests; `block: false` hides the look at many lines. */
  function countingEngine(block: boolean) {
    const counts = { lineTests: 0 };
    const regex: RegexEngine = {
      compile(pattern, options) {
        const compiled = engine.compile(pattern, options);
        const test = (line: string) => ((counts.lineTests += 1), compiled.test(line));
        return block && compiled.mayMatchSomeLine ? { test, mayMatchSomeLine: compiled.mayMatchSomeLine } : { test };
      },
    };
    return { counts, grepper: new Grep(fs, new SteppingClock(0), regex, settings, rootAccess(makeRoot('workspace', '/ws', ['*']))) };
  }

  it('does not split a file without a match into lines', async () => {
    fs.seedFile('/ws/a.txt', numbered(500).join('\n'));
    const { counts, grepper } = countingEngine(true);

    expect((await grep({ pattern: 'needle_[0-9]{4}' }, grepper)).total_matches).toBe(0);
    expect(counts.lineTests).toBe(0);
  });

  it('finds exactly what a line-by-line scan finds, anchors, CRLF files and inline flags included', async () => {
    fs.seedFile('/ws/lf.txt', 'alpha\nbeta\n  beta  \nBETA\nend');
    fs.seedFile('/ws/crlf.txt', 'alpha\r\nbeta\r\ngamma\r\n');
    fs.seedFile('/ws/long.txt', `${'x'.repeat(MAX_LINE_CHARS + 10)}\nbeta\n`);
    const patterns = ['^beta$', 'beta$', '^\\s+beta', '\\Abeta', 'beta\\z', '(?-m)^beta$', '(?i)^beta$', 'a\\nb', '[^x]eta$', '^$', 'x$'];
    for (const pattern of patterns) {
      const blockwise = await grep({ pattern, max_results: 1000 }, countingEngine(true).grepper);
      const linewise = await grep({ pattern, max_results: 1000 }, countingEngine(false).grepper);
      expect({ pattern, matches: blockwise.matches }).toEqual({ pattern, matches: linewise.matches });
    }
  });
});
