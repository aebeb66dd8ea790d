import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { Settings } from '../../../src/domain/settings.js';
import { Glob, type GlobInput } from '../../../src/domain/tools/glob.js';
import { Grep, type GrepInput } from '../../../src/domain/tools/grep.js';
import { domainError, rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { searchSettings, SteppingClock } from '../tools/search-harness.js';

// Issue 19 §5: .gitignore-aware search, on the in-memory file system.
let fs: InMemoryFileSystem;

function tools(settings: Settings = searchSettings(1000)) {
  const access = rootAccess(makeRoot('workspace', '/ws', ['*']));
  return {
    glob: new Glob(fs, new SteppingClock(0), new Re2RegexEngine(), settings, access),
    grep: new Grep(fs, new SteppingClock(0), new Re2RegexEngine(), settings, access),
  };
}

const globPaths = async (input: Omit<GlobInput, 'root' | 'pattern'> = {}, settings?: Settings) =>
  (await tools(settings).glob.execute({ root: 'workspace', pattern: '**', type_filter: 'file', ...input })).matches.map((match) => match.path);
const grepFiles = async (input: Omit<GrepInput, 'root' | 'pattern'> = {}) =>
  (await tools().grep.execute({ root: 'workspace', pattern: 'hit', ...input })).matches.map((match) => match.file);

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
});

describe('ignore rules', () => {
  it("follow git's rules: negation, anchoring, **, directory-only patterns, nested files applying below their folder", async () => {
    fs.seedFile('/ws/.gitignore', ['# comment', '*.log', '!keep.log', '/build', 'node_modules/', 'docs/**/draft-*', 'cache', ''].join('\n'));
    for (const path of ['a.ts', 'x.log', 'keep.log', 'build/out.js', 'src/build/kept.js', 'node_modules/m/i.js', 'src/node_modules/n.js',
      'docs/a/b/draft-1.md', 'docs/final.md', 'src/cache', 'src/util/cache/c.txt', 'src/sub/local.tmp', 'other/local.tmp']) {
      fs.seedFile(`/ws/${path}`, 'hit');
    }
    fs.seedFile('/ws/src/sub/.gitignore', '*.tmp\n');
    // A file named like a directory-only pattern is not ignored by it.
    fs.seedFile('/ws/lib/node_modules', 'hit');
    expect(await globPaths()).toEqual([
      '.gitignore', 'a.ts', 'docs/final.md', 'keep.log', 'lib/node_modules', 'other/local.tmp', 'src/build/kept.js', 'src/sub/.gitignore',
    ]);
  });

  it('never enters .git, reads .git/info/exclude and .ignore (over .gitignore in its folder), and counts what it passed over', async () => {
    fs.seedFile('/ws/.git/HEAD', 'hit');
    fs.seedFile('/ws/.git/info/exclude', 'secret-*\n');
    fs.seedFile('/ws/.gitignore', '*.gen\n');
    fs.seedFile('/ws/pkg/.ignore', '!wanted.gen\n');
    for (const path of ['a.ts', 'secret-key', 'x.gen', 'pkg/wanted.gen', 'pkg/other.gen']) fs.seedFile(`/ws/${path}`, 'hit');
    const result = await tools().glob.execute({ root: 'workspace', pattern: '**', type_filter: 'file' });
    expect(result.matches.map((match) => match.path)).toEqual(['.gitignore', 'a.ts', 'pkg/.ignore', 'pkg/wanted.gen']);
    // .git, secret-key, x.gen, pkg/other.gen
    expect(result.ignored).toBe(4);
    expect(await grepFiles()).toEqual(['a.ts', 'pkg/wanted.gen']);
    expect((await tools().grep.execute({ root: 'workspace', pattern: 'hit' })).ignored).toBe(4);
  });

  it('a search cut short at its limit counts only what it passed over before the walk reached the cut', async () => {
    fs.seedFile('/ws/.git/HEAD', 'hit');
    fs.seedFile('/ws/.gitignore', '*.gen\n');
    for (const path of ['a.ts', 'b.ts', 'c.gen', 'd/.git/x', 'd/e.gen', 'd/f.ts', 'z.gen']) fs.seedFile(`/ws/${path}`, 'hit');
    // Walk order: .git (passed over), .gitignore, a.ts (the cut at max_results 1), ...: one passed over before it.
    const cut = await tools().glob.execute({ root: 'workspace', pattern: '**', type_filter: 'file', max_results: 1 });
    expect({ matches: cut.matches.map((match) => match.path), truncated: cut.truncated, ignored: cut.ignored }).toEqual({ matches: ['.gitignore'], truncated: true, ignored: 1 });
    // ... b.ts, c.gen (passed over), d, d/.git and d/e.gen (passed over), d/f.ts (the cut at 3), z.gen (not reached).
    const later = await tools().glob.execute({ root: 'workspace', pattern: '**', type_filter: 'file', max_results: 3 });
    expect({ matches: later.matches.map((match) => match.path), ignored: later.ignored }).toEqual({ matches: ['.gitignore', 'a.ts', 'b.ts'], ignored: 4 });
    // grep stops at the file that had no room: b.ts at max_results 1 (a.ts holds the one match); .git passed over before.
    const grepped = await tools().grep.execute({ root: 'workspace', pattern: 'hit', max_results: 1 });
    expect({ files: grepped.matches.map((match) => match.file), ignored: grepped.ignored }).toEqual({ files: ['a.ts'], ignored: 1 });
    // Not cut: everything passed over counts (.git, c.gen, d/.git, d/e.gen, z.gen).
    expect((await tools().glob.execute({ root: 'workspace', pattern: '**', type_filter: 'file' })).ignored).toBe(5);
  });

  it('judges an entry of a folder it entered by the entry alone, as git does: a deeper !logs/ re-includes the folder and what is in it', async () => {
    // git check-ignore: sub/logs/x.txt not ignored (sub/.gitignore:1:!logs/ for sub/logs), other/logs/y.txt ignored by .gitignore:1:logs/.
    fs.seedFile('/ws/.gitignore', 'logs/\n');
    fs.seedFile('/ws/sub/.gitignore', '!logs/\n');
    for (const path of ['sub/logs/x.txt', 'sub/logs/deeper/z.txt', 'other/logs/y.txt']) fs.seedFile(`/ws/${path}`, 'hit');
    expect(await globPaths()).toEqual(['.gitignore', 'sub/.gitignore', 'sub/logs/deeper/z.txt', 'sub/logs/x.txt']);
    expect(await grepFiles()).toEqual(['sub/logs/deeper/z.txt', 'sub/logs/x.txt']);
  });

  it('applies the rules of folders above a start below the root, with paths as they read from there', async () => {
    fs.seedFile('/ws/.gitignore', '/src/gen/\n*.log\n');
    fs.seedFile('/ws/src/.gitignore', 'tmp/\n');
    for (const path of ['src/a.ts', 'src/gen/g.ts', 'src/x.log', 'src/tmp/t.ts', 'src/deep/gen/ok.ts']) fs.seedFile(`/ws/${path}`, 'hit');
    expect(await globPaths({ path: 'src' })).toEqual(['src/.gitignore', 'src/a.ts', 'src/deep/gen/ok.ts']);
    expect(await grepFiles({ path: 'src/deep' })).toEqual(['src/deep/gen/ok.ts']);
  });

  it('searches a path the call names explicitly even when it is ignored (as ripgrep does), but applies the rest below it', async () => {
    fs.seedFile('/ws/.gitignore', 'node_modules/\n*.map\n');
    fs.seedFile('/ws/node_modules/foo/index.js', 'hit');
    fs.seedFile('/ws/node_modules/foo/index.js.map', 'hit');
    fs.seedFile('/ws/node_modules/foo/node_modules/bar/b.js', 'hit');
    expect(await grepFiles()).toEqual([]);
    // The named start is searched; below it, the root's rules still hold (*.map, nested node_modules/).
    expect(await grepFiles({ path: 'node_modules/foo' })).toEqual(['node_modules/foo/index.js']);
    expect(await grepFiles({ path: 'node_modules/foo/index.js.map' })).toEqual(['node_modules/foo/index.js.map']);
  });

  it('ignore: "none" (or search.ignore: none) searches everything, .git included, without an ignored count', async () => {
    fs.seedFile('/ws/.gitignore', '*.log\n');
    fs.seedFile('/ws/.git/HEAD', 'hit');
    fs.seedFile('/ws/x.log', 'hit');
    expect(await globPaths({ ignore: 'none' })).toEqual(['.git/HEAD', '.gitignore', 'x.log']);
    const settings = searchSettings(1000);
    expect(await globPaths({}, { ...settings, search: { ...settings.search, ignore: 'none' } })).toEqual(['.git/HEAD', '.gitignore', 'x.log']);
    expect(await globPaths({ ignore: 'gitignore' }, { ...settings, search: { ...settings.search, ignore: 'none' } })).toEqual(['.gitignore']);
    expect(await tools().glob.execute({ root: 'workspace', pattern: '**', ignore: 'none' })).not.toHaveProperty('ignored');
  });

  it('an ignore file can only hide entries: a negation cannot bring in what is outside the walk, a link is not read', async () => {
    fs.seedFile('/outside/.gitignore', '*\n');
    fs.seedSymlink('/ws/.gitignore', '/outside/.gitignore');
    fs.seedFile('/ws/sub/.gitignore', '!*\n!../**\n');
    fs.seedFile('/ws/a.ts', 'hit');
    fs.seedSymlink('/ws/sub/out', '/outside');
    expect(await globPaths()).toEqual(['a.ts', 'sub/.gitignore']);
    expect((await tools().glob.execute({ root: 'workspace', pattern: '**' })).matches.map((match) => match.path)).toEqual(['.gitignore', 'a.ts', 'sub', 'sub/.gitignore', 'sub/out']);
  });

  it('refuses an unknown ignore mode, naming the root', async () => {
    const error = await domainError(tools().glob.execute({ root: 'workspace', pattern: '**', ignore: 'all' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('invalid ignore: all (valid: gitignore, none) (root: workspace)');
  });
});
