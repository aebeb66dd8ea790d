import { jest } from '@jest/globals';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { InMemoryFileWatcher } from '../../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import type { EntryKind } from '../../../src/domain/ports/file-system.port.js';
import type { TreeScanBatch, TreeScanOptions } from '../../../src/domain/ports/tree-scan-types.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { IgnoreRuleCache } from '../../../src/domain/search/ignore-rule-cache.js';
import { IgnoreRules, ignoreRulesFor } from '../../../src/domain/search/ignore-rules.js';
import { applyTreeChanges } from '../../../src/domain/search/snapshot-changes.js';
import { TreeSnapshots } from '../../../src/domain/search/tree-snapshots.js';
import { replayScan } from '../../../src/domain/search/snapshot-replay.js';
import { WalkSnapshot } from '../../../src/domain/search/walk-snapshot.js';
import { Glob } from '../../../src/domain/tools/glob.js';
import { rootAccess, TEST_SETTINGS } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

const root = makeRoot('workspace', '/ws');
const at = (...segments: string[]): RootPath => ({ root, segments });
const cache = new IgnoreRuleCache();
let fs: InMemoryFileSystem;

/** Each write a millisecond later than the last, so a folder's mtime tells it changed. */
let ticks = 0;

beforeEach(() => {
  fs = new InMemoryFileSystem({ clock: { now: () => new Date(Date.UTC(2026, 0, 1) + (ticks += 1)) } });
  fs.seedFile('/ws/.gitignore', '*.log\nbuild/\n');
  for (const path of ['a.txt', 'b.log', 'src/c.ts', 'src/deep/d.ts', 'src/deep/e.log', 'build/out.js', 'docs/f.md', 'src/.gitignore']) fs.seedFile(`/ws/${path}`, path === 'src/.gitignore' ? 'deep/e.*\n' : 'needle\n');
  fs.seedSymlink('/ws/link', '/ws/src');
});

/** Everything a scan tells its caller: the rule files found, the entries judged, the entries reported. */
async function record(scan: (options: TreeScanOptions) => AsyncIterable<TreeScanBatch> | Promise<AsyncIterable<TreeScanBatch>>, start: RootPath, maxDepth?: number) {
  const rules = await ignoreRulesFor(fs, start, 'gitignore', cache);
  const judged: string[] = [];
  const found: string[] = [];
  const options: TreeScanOptions = {
    maxDepth,
    select: (path: string, kind: EntryKind) => (judged.push(`${path}:${kind}`), kind !== 'directory' || path.startsWith('src')),
    prune: (path, kind) => rules!.prune(path, kind),
    directoryFiles: { ...rules!.scanOptions().directoryFiles, found: (dir, files) => (found.push(`${dir}:${files.map((file) => file.name).join(',')}`), rules!.scanOptions().directoryFiles.found(dir, files)) },
  };
  const reported: string[] = [];
  let scanned = 0;
  for await (const batch of await scan(options)) {
    scanned += batch.scanned;
    for (const entry of batch.selected) reported.push(`${entry.relativePath}:${entry.stat.kind}:${entry.stat.size}:${entry.stat.inode}`);
  }
  return { judged: judged.sort(), found: found.sort(), reported, scanned, ignored: rules!.ignored };
}

async function snapshotOf(): Promise<WalkSnapshot> {
  const rules = await ignoreRulesFor(fs, at(), 'gitignore', cache);
  return (await WalkSnapshot.build(fs, at(), rules!.scanOptions()))!;
}

/** The stat the snapshot holds of the entry at `path` (root-relative). */
function statOf(snapshot: WalkSnapshot, path: string) {
  const held = snapshot.entryAt(path.split('/'));
  return held === undefined || held.index < 0 ? undefined : snapshot.rows.stat(held.parent.row(held.index), held.parent.name(held.index));
}

async function expectReplayEqualsScan(snapshot: WalkSnapshot, start: RootPath, maxDepth?: number): Promise<void> {
  const replayed = await record((options) => replayScan(fs, start, snapshot, snapshot.directoryAt(start.segments)!, options), start, maxDepth);
  const scanned = await record((options) => fs.scanTree(start, options), start, maxDepth);
  expect(replayed).toEqual(scanned);
}

describe('WalkSnapshot', () => {
  it('replays a scan exactly: entries, order, stats, rule files, ignored counts, any start and depth', async () => {
    const snapshot = await snapshotOf();
    expect(snapshot.directories()).toEqual(['', 'docs', 'src', 'src/deep']);
    await expectReplayEqualsScan(snapshot, at());
    await expectReplayEqualsScan(snapshot, at('src'));
    await expectReplayEqualsScan(snapshot, at(), 2);
  });

  it('with selectNameEnding, asks select only about directories and names ending so, and reports the same', async () => {
    const snapshot = await snapshotOf();
    const replay = async (selectNameEnding?: string) => {
      const asked: string[] = [];
      const options: TreeScanOptions = {
        select: (path, kind, name) => {
          // The replay hands over each entry's own name (a live scan may not).
          if (name !== undefined) expect(name).toBe(path.split('/').pop());
          asked.push(name === undefined ? `${path} (no name)` : path);
          return kind === 'file' && path.endsWith('.ts');
        },
        selectNameEnding,
      };
      const reported: string[] = [];
      for await (const batch of replayScan(fs, at(), snapshot, snapshot.directoryAt([])!, options)) reported.push(...batch.selected.map((entry) => entry.relativePath));
      return { asked, reported };
    };
    const hinted = await replay('.ts');
    const plain = await replay();
    expect(hinted.reported).toEqual(['src/c.ts', 'src/deep/d.ts']);
    expect(hinted.reported).toEqual(plain.reported);
    // Without the hint every entry is asked about (the link, a.txt...); with it only the folders and the .ts files
    // (build/, which the snapshot's rules passed over, is scanned live, and a live scan may ask about any name).
    expect(plain.asked).toEqual(expect.arrayContaining(['a.txt', 'b.log', 'link', 'docs/f.md']));
    expect(hinted.asked.sort()).toEqual(['build', 'build/out.js (no name)', 'docs', 'src', 'src/c.ts', 'src/deep', 'src/deep/d.ts']);
  });

  it('brought up to date with the paths changed, it replays the tree as it is now', async () => {
    const snapshot = await snapshotOf();
    fs.seedFile('/ws/src/new.ts', 'fresh needle');
    await fs.removeFile(at('a.txt'));
    await fs.rename(at('docs', 'f.md'), at('src', 'deep', 'g.md'));
    await fs.writeFile(at('src', 'c.ts'), new TextEncoder().encode('longer text now'), { mode: 'overwrite' } as never);
    const outcome = await applyTreeChanges(fs, root, snapshot, ['src/new.ts', 'a.txt', 'docs/f.md', 'src/deep/g.md', 'src/c.ts']);
    expect(outcome).toBe('exact');
    await expectReplayEqualsScan(snapshot, at());
  });

  it('a new or replaced directory is scanned live (partial); a link in a directory\'s place is never entered', async () => {
    const snapshot = await snapshotOf();
    fs.seedFile('/ws/fresh/h.ts', 'needle');
    // Deeper down, from a start below the root too: the live scan's path is made from the replay's prefix.
    fs.seedFile('/ws/src/deep/later/i.ts', 'needle');
    await fs.removeDirectory(at('docs'));
    fs.seedSymlink('/ws/docs', '/ws/src');
    expect(await applyTreeChanges(fs, root, snapshot, ['fresh', 'docs', 'src/deep/later'])).toBe('partial');
    expect(snapshot.directoryAt(['docs'])).toBeUndefined();
    expect(snapshot.directoryAt(['src', 'deep', 'later'])).toBeUndefined();
    await expectReplayEqualsScan(snapshot, at());
    await expectReplayEqualsScan(snapshot, at('src'));
  });

  it('a work file made and removed in a folder is never listed, but the folder is restamped', async () => {
    const snapshot = await snapshotOf();
    const before = statOf(snapshot, 'src')?.modifiedAt.getTime();
    await fs.writeFile(at('src', '.mcp-fs-0123456789abcdef.tmp'), new Uint8Array(1), { mode: 'overwrite' } as never);
    await fs.removeFile(at('src', '.mcp-fs-0123456789abcdef.tmp'));
    expect((await fs.stat(at('src')))?.modifiedAt.getTime()).toBeGreaterThan(before!);
    expect(await applyTreeChanges(fs, root, snapshot, ['src/.mcp-fs-0123456789abcdef.tmp'])).toBe('exact');
    await expectReplayEqualsScan(snapshot, at());
    // The folder's stat as a lookup gives it now, but its birth time (a snapshot keeps none).
    const { createdAt: _birth, ...now } = (await fs.stat(at('src'), { followSymlinks: false }))!;
    expect(statOf(snapshot, 'src')).toStrictEqual(now);
  });

  it('a tree past maxEntries keeps no snapshot; a root with such a tree walks', async () => {
    const rules = await ignoreRulesFor(fs, at(), 'gitignore', cache);
    expect(await WalkSnapshot.build(fs, at(), rules!.scanOptions(), undefined, 5)).toBeUndefined();
    const bounded = new TreeSnapshots(fs, new InMemoryFileWatcher(fs), { mode: 'auto', ignore: 'gitignore', maxDirectories: 100, minEntries: 0, maxEntries: 5 }, cache);
    await bounded.settled(root);
    const glob = new Glob(fs, { now: () => new Date(0) }, new Re2RegexEngine(), TEST_SETTINGS, rootAccess(root), cache, undefined, bounded);
    await glob.execute({ root: 'workspace', pattern: '**/*' });
    expect(bounded.answered).toEqual({ fromSnapshot: 0, byWalk: 1 });
  });

  it('a rule file changed: only a walk can tell', async () => {
    const snapshot = await snapshotOf();
    expect(await applyTreeChanges(fs, root, snapshot, ['src/.gitignore'])).toBe('rewalk');
  });
});

describe('TreeSnapshots', () => {
  function tools() {
    const watcher = new InMemoryFileWatcher(fs);
    const snapshots = new TreeSnapshots(fs, watcher, { mode: 'auto', ignore: 'gitignore', maxDirectories: 100, minEntries: 0, maxEntries: 100_000 }, cache);
    const glob = (tree?: TreeSnapshots) => new Glob(fs, { now: () => new Date(0) }, new Re2RegexEngine(), TEST_SETTINGS, rootAccess(root), cache, undefined, tree);
    return { watcher, snapshots, walkless: glob(snapshots), walking: glob() };
  }

  it('answers glob from the snapshot, fresh with every change the watch told; a lost watch means a walk', async () => {
    const { watcher, snapshots, walkless, walking } = tools();
    const input = { root: 'workspace', pattern: '**/*' };
    await snapshots.settled(root);
    expect(await walkless.execute(input)).toEqual(await walking.execute(input));
    fs.seedFile('/ws/src/deep/new.ts', 'x');
    watcher.changed(at('src', 'deep', 'new.ts'));
    const fresh = await walkless.execute(input);
    expect(fresh.matches.map((match) => match.path)).toContain('src/deep/new.ts');
    expect(fresh).toEqual(await walking.execute(input));
    expect(snapshots.answered).toEqual({ fromSnapshot: 2, byWalk: 0 });
    watcher.lost(root);
    expect(await walkless.execute(input)).toEqual(await walking.execute(input));
    expect(snapshots.answered.byWalk).toBe(1);
  });

  it('a repeated glob from the snapshot takes the ignore verdicts it kept: no entry judged again, the same answer and count', async () => {
    const { snapshots, walkless, walking } = tools();
    const judge = jest.spyOn(IgnoreRules.prototype as unknown as { judge: () => boolean }, 'judge');
    try {
      for (const input of [{ root: 'workspace', pattern: '**/*' }, { root: 'workspace', path: 'src', pattern: '**/*.ts' }]) {
        await snapshots.settled(root);
        const expected = await walking.execute(input);
        expect(expected.ignored).toBeGreaterThan(0);
        await walkless.execute(input);
        judge.mockClear();
        expect(await walkless.execute(input)).toEqual(expected);
        expect(judge).not.toHaveBeenCalled();
      }
    } finally {
      judge.mockRestore();
    }
  });

  it('a repeated glob hands over no rule files; an entry new since is judged under every rule file above it', async () => {
    const { watcher, snapshots, walkless, walking } = tools();
    const enter = jest.spyOn(IgnoreRules.prototype, 'enter');
    try {
      const input = { root: 'workspace', pattern: '**/*' };
      await snapshots.settled(root);
      await walkless.execute(input);
      enter.mockClear();
      expect(await walkless.execute(input)).toEqual(await walking.execute(input));
      // The walk above told its own rules of every directory: only the repeated glob's calls are counted.
      enter.mockClear();
      await walkless.execute(input);
      expect(enter).not.toHaveBeenCalled();
      // src/.gitignore says deep/e.*: the new e.md is ignored only if src's rules are handed over before it is judged.
      fs.seedFile('/ws/src/deep/e.md', 'x');
      fs.seedFile('/ws/src/deep/g.ts', 'x');
      watcher.changed(at('src', 'deep', 'e.md'));
      watcher.changed(at('src', 'deep', 'g.ts'));
      const fresh = await walkless.execute(input);
      expect(enter.mock.calls.map(([directory]) => directory)).toEqual(['', 'src', 'src/deep']);
      expect(fresh.matches.map((match) => match.path)).toContain('src/deep/g.ts');
      expect(fresh.matches.map((match) => match.path)).not.toContain('src/deep/e.md');
      expect(fresh).toEqual(await walking.execute(input));
    } finally {
      enter.mockRestore();
    }
  });

  it('a glob from the snapshot that no name can match still stops at its deadline (names it never asks about)', async () => {
    for (let i = 0; i < 3000; i += 1) fs.seedFile(`/ws/flat/f${i}.txt`, '');
    const { snapshots } = tools();
    await snapshots.settled(root);
    // Once `late`, the clock passes the deadline as soon as the call has begun: the first read sets it, every later one is an hour on.
    let late = false;
    let reads = 0;
    const clock = { now: () => new Date(late && reads++ > 0 ? 3_600_000 : 0) };
    const glob = new Glob(fs, clock, new Re2RegexEngine(), TEST_SETTINGS, rootAccess(root), cache, undefined, snapshots);
    const input = { root: 'workspace', path: 'flat', pattern: '**/*.nomatch' };
    // The first call judges every name against the ignore rules (and asks select); the repeated one takes the kept verdicts.
    expect(await glob.execute(input)).toMatchObject({ matches: [], timed_out: false });
    late = true;
    expect(await glob.execute(input)).toMatchObject({ matches: [], timed_out: true });
    expect(snapshots.answered.fromSnapshot).toBe(2);
  });

  it('a root past the watch budget, or a call with other ignore rules, walks', async () => {
    const small = new TreeSnapshots(fs, new InMemoryFileWatcher(fs), { mode: 'auto', ignore: 'gitignore', maxDirectories: 2, minEntries: 0, maxEntries: 100_000 }, cache);
    await small.settled(root);
    const glob = new Glob(fs, { now: () => new Date(0) }, new Re2RegexEngine(), TEST_SETTINGS, rootAccess(root), cache, undefined, small);
    await glob.execute({ root: 'workspace', pattern: '**/*' });
    expect(small.answered).toEqual({ fromSnapshot: 0, byWalk: 1 });
    const { snapshots, walkless } = tools();
    await snapshots.settled(root);
    await walkless.execute({ root: 'workspace', pattern: '**/*', ignore: 'none' });
    expect(snapshots.answered).toEqual({ fromSnapshot: 0, byWalk: 1 });
  });
});
