import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { Clock } from '../../../src/domain/ports/clock.port.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import { Glob, type GlobInput } from '../../../src/domain/tools/glob.js';
import { domainError, rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { searchSettings, SteppingClock } from './search-harness.js';

const settings = searchSettings(20);

let fs: InMemoryFileSystem;

function globWith(options: { clock?: Clock; tools?: string[]; maxResultsLimit?: number } = {}): Glob {
  const access = rootAccess(makeRoot('workspace', '/ws', options.tools ?? ['*']));
  const limits = options.maxResultsLimit === undefined ? settings : searchSettings(options.maxResultsLimit);
  return new Glob(fs, options.clock ?? new SteppingClock(0), new Re2RegexEngine(), limits, access);
}

/** Entries enough for the deadline to be looked at several times (every 64 entries). */
function seedManyFiles(count: number): void {
  for (let i = 0; i < count; i += 1) fs.seedFile(`/ws/f${String(i).padStart(4, '0')}.txt`, '');
}

const glob = (input: Omit<GlobInput, 'root'>, globber = globWith()) => globber.execute({ root: 'workspace', ...input });
const paths = async (input: Omit<GlobInput, 'root'>) => (await glob(input)).matches.map((m) => m.path);

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
});

describe('Glob', () => {
  it('E2E-055: `*.go` matches top-level Go files only, with type, size and modified_at', async () => {
    const modifiedAt = new Date('2025-06-01T12:00:00Z');
    fs.seedFile('/ws/a.go', 'a', { modifiedAt });
    fs.seedFile('/ws/b.go', 'bb', { modifiedAt });
    fs.seedFile('/ws/c.txt', 'c');
    fs.seedFile('/ws/sub/d.go', 'd');

    expect(await glob({ pattern: '*.go' })).toEqual({
      matches: [
        { path: 'a.go', type: 'file', size: 1, modified_at: '2025-06-01T12:00:00.000Z' },
        { path: 'b.go', type: 'file', size: 2, modified_at: '2025-06-01T12:00:00.000Z' },
      ],
      total_matches: 2,
      truncated: false,
      timed_out: false,
      ignored: 0,
    });
  });

  it('E2E-056: regex is an unanchored search on the relative path', async () => {
    fs.seedFile('/ws/test_1.go', '');
    fs.seedFile('/ws/test_2.go', '');
    fs.seedFile('/ws/main.go', '');
    fs.seedFile('/ws/pkg/test_30.go', '');

    expect(await paths({ regex: 'test_\\d+\\.go' })).toEqual(['pkg/test_30.go', 'test_1.go', 'test_2.go']);
    expect(await paths({ regex: '^test_\\d+\\.go$' })).toEqual(['test_1.go', 'test_2.go']);
  });

  it('E2E-057: `**` spans any number of directories, none included', async () => {
    fs.seedFile('/ws/top.go', '');
    fs.seedFile('/ws/src/a.go', '');
    fs.seedFile('/ws/src/pkg/b.go', '');
    fs.seedFile('/ws/src/pkg/sub/c.go', '');
    fs.seedFile('/ws/src/pkg/readme.md', '');

    expect(await paths({ pattern: '**/*.go' })).toEqual(['src/a.go', 'src/pkg/b.go', 'src/pkg/sub/c.go', 'top.go']);
    expect(await paths({ pattern: 'src/**/*.go' })).toEqual(['src/a.go', 'src/pkg/b.go', 'src/pkg/sub/c.go']);
  });

  it('E2E-058: type_filter selects files, directories or symlinks', async () => {
    fs.seedFile('/ws/x.txt', 'x');
    fs.seedFile('/ws/d1/inner.txt', 'i');
    fs.seedDirectory('/ws/d2');
    fs.seedSymlink('/ws/link', 'x.txt');

    expect(await paths({ pattern: '*', type_filter: 'file' })).toEqual(['x.txt']);
    expect(await paths({ pattern: '*', type_filter: 'directory' })).toEqual(['d1', 'd2']);
    expect(await glob({ pattern: '*', type_filter: 'symlink' })).toMatchObject({ matches: [{ path: 'link', type: 'symlink' }] });
    expect(await paths({ pattern: '*', type_filter: 'all' })).toEqual(['d1', 'd2', 'link', 'x.txt']);
    expect(await paths({ pattern: '*' })).toEqual(['d1', 'd2', 'link', 'x.txt']);
  });

  it('an unknown type_filter is INVALID_ARGUMENT listing the valid values', async () => {
    const error = await domainError(glob({ pattern: '*', type_filter: 'files' }));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: invalid type_filter: files (valid: file, directory, symlink, all) (root: workspace)');
  });

  it('E2E-059: no match gives total_matches 0', async () => {
    fs.seedFile('/ws/a.go', '');
    expect(await glob({ pattern: '*.xyz' })).toEqual({ matches: [], total_matches: 0, truncated: false, timed_out: false, ignored: 0 });
  });

  it('E2E-060: exactly one of pattern or regex (empty strings count as absent)', async () => {
    for (const input of [{ pattern: '*.go', regex: '.*\\.go' }, {}, { pattern: '', regex: '' }]) {
      const error = await domainError(glob(input));
      expect(error.toClientText()).toBe('INVALID_ARGUMENT: exactly one of pattern or regex must be provided (root: workspace)');
    }
    fs.seedFile('/ws/a.go', '');
    expect(await paths({ pattern: '*.go', regex: '' })).toEqual(['a.go']);
  });

  it("E2E-076: an invalid regex is INVALID_ARGUMENT with RE2's reason", async () => {
    const error = await domainError(glob({ regex: '[unclosed' }));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: invalid regex: missing ]: [unclosed (root: workspace)');
  });

  it('E2E-076: an invalid glob (unbalanced bracket) is INVALID_ARGUMENT', async () => {
    const error = await domainError(glob({ pattern: 'src/[abc' }));
    expect(error.toClientText()).toBe("INVALID_ARGUMENT: invalid pattern: unclosed '[' in glob (root: workspace)");
  });

  it('refuses a negated extglob, which linear-time matching cannot express', async () => {
    const error = await domainError(glob({ pattern: '!(*.go)' }));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: invalid pattern: negated extglob !(...) is not supported (root: workspace)');
  });

  it('matches a backtracking-prone extglob in linear time (RE2)', async () => {
    fs.seedFile(`/ws/${'a'.repeat(40)}b`, '');
    fs.seedFile('/ws/xc', '');

    const started = Date.now();
    expect(await paths({ pattern: '+(*)c' })).toEqual(['xc']);
    expect(await paths({ pattern: '*a*a*a*a*a*a*a*a*a*a*a*a*c' })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a pattern or regex longer than 1000 characters, naming it', async () => {
    for (const input of [{ pattern: 'a'.repeat(1001) }, { regex: 'a'.repeat(1001) }]) {
      const error = await domainError(glob(input));
      expect(error.toClientText()).toBe(`INVALID_ARGUMENT: invalid ${Object.keys(input)[0]}: pattern longer than 1000 characters (root: workspace)`);
    }
    fs.seedFile(`/ws/${'a'.repeat(200)}`, '');
    expect(await paths({ pattern: 'a'.repeat(200) + '*'.repeat(800) })).toEqual(['a'.repeat(200)]);
  });

  it('matches dot files and dot directories like any other name', async () => {
    fs.seedFile('/ws/.env', '');
    fs.seedFile('/ws/.github/workflows/ci.yml', '');

    expect(await paths({ pattern: '*', type_filter: 'file' })).toEqual(['.env']);
    expect(await paths({ pattern: '**/*.yml' })).toEqual(['.github/workflows/ci.yml']);
  });

  it('matches against the path below `path` but reports paths relative to the root', async () => {
    fs.seedFile('/ws/src/main.go', '');
    fs.seedFile('/ws/src/pkg/util.go', '');
    fs.seedFile('/ws/main.go', '');

    expect(await paths({ pattern: '*.go', path: 'src' })).toEqual(['src/main.go']);
    expect(await paths({ regex: '^pkg', path: 'src' })).toEqual(['src/pkg', 'src/pkg/util.go']);
  });

  it('sorts results by path, not by walk order', async () => {
    fs.seedFile('/ws/a/b.txt', '');
    fs.seedFile('/ws/a-b.txt', '');
    fs.seedFile('/ws/B.txt', '');

    expect(await paths({ pattern: '**/*.txt' })).toEqual(['B.txt', 'a-b.txt', 'a/b.txt']);
  });

  it('sorts paths in code point order, like list_folder (astral characters after U+FFFD)', async () => {
    fs.seedFile('/ws/\u{1F600}.txt', '');
    fs.seedFile('/ws/\uFFFD.txt', '');
    fs.seedFile('/ws/d/\u{1F600}.txt', '');
    fs.seedFile('/ws/d/\uFFFD.txt', '');

    expect(await paths({ pattern: '**/*.txt' })).toEqual(['d/\uFFFD.txt', 'd/\u{1F600}.txt', '\uFFFD.txt', '\u{1F600}.txt']);
  });

  it('max_depth 1 lists only entries directly in path, like grep', async () => {
    fs.seedFile('/ws/top.go', '');
    fs.seedFile('/ws/one/mid.go', '');
    fs.seedFile('/ws/one/two/low.go', '');

    expect(await paths({ pattern: '**/*.go', max_depth: 1 })).toEqual(['top.go']);
    expect(await paths({ pattern: '**/*.go', max_depth: 2 })).toEqual(['one/mid.go', 'top.go']);
  });

  it('NFR-009: lists symlinks as entries without following them out of the root', async () => {
    fs.seedFile('/outside/secret.go', '');
    fs.seedSymlink('/ws/escape', '/outside');
    fs.seedFile('/ws/real/a.go', '');
    fs.seedSymlink('/ws/alias', 'real');

    expect(await glob({ pattern: '**' })).toMatchObject({
      matches: [
        { path: 'alias', type: 'symlink' },
        { path: 'escape', type: 'symlink' },
        { path: 'real', type: 'directory' },
        { path: 'real/a.go', type: 'file' },
      ],
    });
    expect((await domainError(glob({ pattern: '*', path: 'escape' }))).code).toBe('ACCESS_DENIED');
  });

  it('stops at max_results with truncated=true, and clamps max_results to the ceiling', async () => {
    for (let i = 0; i < 30; i += 1) fs.seedFile(`/ws/f${String(i).padStart(2, '0')}.txt`, '');

    expect(await glob({ pattern: '*.txt', max_results: 3 })).toMatchObject({ total_matches: 3, truncated: true });
    expect(await glob({ pattern: '*.txt', max_results: 30 })).toMatchObject({ total_matches: settings.search.maxResultsLimit, truncated: true });
    fs.seedDirectory('/ws/few');
    fs.seedFile('/ws/few/a.txt', '');
    expect(await glob({ pattern: '*.txt', path: 'few', max_results: 1 })).toMatchObject({ total_matches: 1, truncated: false });
  });

  it('NFR-004: returns what it found with timed_out=true when the deadline passes', async () => {
    seedManyFiles(1000);
    const clock = new SteppingClock(100);

    // The clock reads 100 ms later each time: the deadline (1 s) passes at its tenth look, the 640th entry.
    const result = await glob({ pattern: '*.txt', max_results: 1000, timeout_seconds: 1 }, globWith({ clock, maxResultsLimit: 10_000 }));
    expect(result.timed_out).toBe(true);
    expect(result.truncated).toBe(false);
    expect(result.matches.length).toBe(639);
  });

  it('a deadline that passes while the last batch comes is a complete answer, not timed out; with batches left it is timed out', async () => {
    // Two folders of 10 (one batch each here, too few entries for select to look at the clock): the clock
    // jumps past the deadline as the scan hands over its first batch.
    for (const folder of ['a', 'b']) for (let i = 0; i < 10; i += 1) fs.seedFile(`/ws/${folder}/f${i}.txt`, '');
    let now = 0;
    const clock = { now: () => new Date(1_700_000_000_000 + now) };
    const jumping = (pathPrefix: string): Glob => {
      const port: FileSystemPort = Object.create(fs);
      port.scanTree = async function* (start, options) {
        for await (const batch of fs.scanTree(start, options)) {
          if (batch.selected.some((entry) => entry.relativePath.startsWith(pathPrefix))) now = 5000;
          yield batch;
        }
      };
      return new Glob(port, clock, new Re2RegexEngine(), searchSettings(10_000), rootAccess(makeRoot('workspace', '/ws', ['*'])));
    };
    now = 0;
    const whole = await glob({ pattern: '**/*.txt', path: 'b', timeout_seconds: 1 }, jumping('f'));
    expect(whole).toMatchObject({ total_matches: 10, timed_out: false, truncated: false });
    now = 0;
    const cut = await glob({ pattern: '**/*.txt', timeout_seconds: 1 }, jumping('a/'));
    expect(cut.timed_out).toBe(true);
    expect(cut.matches.every((match) => match.path.startsWith('a/'))).toBe(true);
    expect(cut.total_matches).toBeLessThan(20);
  });

  it('looks at the clock every 64 entries, not on every entry (issue 31.2: a read per entry was a tenth of a large glob)', async () => {
    seedManyFiles(1000);
    const clock = new SteppingClock(0);

    expect(await glob({ pattern: '*.txt', max_results: 1000 }, globWith({ clock, maxResultsLimit: 10_000 }))).toMatchObject({ total_matches: 1000, timed_out: false });
    // One reading for the deadline itself, then one per 64 entries reached (1000 files and the start's own).
    expect(clock.readings).toBeLessThanOrEqual(1 + Math.ceil(1000 / 64));
  });

  it('the limit reached before the deadline is truncated, not timed out, even when the deadline passes later in the same batch', async () => {
    // One directory is one batch here; the deadline passes at the 640th entry, the limit at the 301st.
    seedManyFiles(1000);
    const result = await glob({ pattern: '*.txt', max_results: 300, timeout_seconds: 1 }, globWith({ clock: new SteppingClock(100), maxResultsLimit: 10_000 }));
    expect(result).toMatchObject({ total_matches: 300, truncated: true, timed_out: false });
  });

  it('refuses a path that is a file, a missing path, a path above the root and a root without glob', async () => {
    fs.seedFile('/ws/a.txt', '');

    expect((await domainError(glob({ pattern: '*', path: 'a.txt' }))).toClientText()).toBe('NOT_A_DIRECTORY: not a directory: a.txt (root: workspace)');
    expect((await domainError(glob({ pattern: '*', path: 'gone' }))).code).toBe('NOT_FOUND');
    expect((await domainError(glob({ pattern: '*', path: '../..' }))).code).toBe('ACCESS_DENIED');
    expect((await domainError(glob({ pattern: '*' }, globWith({ tools: ['grep'] })))).code).toBe('TOOL_NOT_ALLOWED');
  });
});
