import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import type { EntryKind } from '../../../src/domain/ports/file-system.port.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { IgnoreRuleCache } from '../../../src/domain/search/ignore-rule-cache.js';
import { ignoreRulesFor } from '../../../src/domain/search/ignore-rules.js';
import { IndexedLookup, stampOf } from '../../../src/domain/search/index-freshness.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { applyTreeChanges } from '../../../src/domain/search/snapshot-changes.js';
import { replayScan } from '../../../src/domain/search/snapshot-replay.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';
import { WalkSnapshot } from '../../../src/domain/search/walk-snapshot.js';
import { makeRoot } from '../../support/roots.js';

const root = makeRoot('workspace', '/ws');
const at = (...segments: string[]): RootPath => ({ root, segments });
const cache = new IgnoreRuleCache();
const FILES: Record<string, string> = { 'a.txt': 'hay\n', 'b.txt': 'a needle\n', 'src/c.ts': 'more hay\n', 'src/d.log': 'needle\n' };
let fs: InMemoryFileSystem;
let index: TrigramIndex;
let lookups: number;
let judged = 0;
let ticks = 0;

beforeEach(async () => {
  fs = new InMemoryFileSystem({ clock: { now: () => new Date(Date.UTC(2026, 0, 1) + (ticks += 1)) } });
  fs.seedFile('/ws/.gitignore', '*.log\n');
  for (const [path, text] of Object.entries(FILES)) fs.seedFile(`/ws/${path}`, text);
  index = new TrigramIndex(1 << 20);
  for (const [path, text] of Object.entries(FILES)) await indexFile(path, text);
  await indexFile('.gitignore', '*.log\n');
  // Counts the index's path lookups: a verdict kept per entry needs none.
  lookups = 0;
  const lookup = index.lookup.bind(index);
  index.lookup = (path) => ((lookups += 1), lookup(path));
});

async function indexFile(path: string, text: string): Promise<void> {
  index.add(path, stampOf((await fs.stat(at(...path.split('/'))))!), text);
}

async function snapshotOf(): Promise<WalkSnapshot> {
  const rules = await ignoreRulesFor(fs, at(), 'gitignore', cache);
  return (await WalkSnapshot.build(fs, at(), rules!.scanOptions()))!;
}

/** An indexed grep's walk from the snapshot: the files reported to be read, the files counted unread, and what the rules passed over. */
async function replay(snapshot: WalkSnapshot, withRules = true) {
  const rules = (await ignoreRulesFor(fs, at(), 'gitignore', cache))!;
  const indexed = new IndexedLookup(index, trigramQueryOf('needle', { caseInsensitive: false }));
  const judges = { index: indexed, everyFile: true, ignore: withRules ? { key: ['', ...rules.key], passOver: rules.passOver } : undefined };
  const scan = rules.scanOptions();
  // Counts the entries the rules are asked about: a verdict kept per entry needs none.
  const prune = (path: string, kind: EntryKind) => ((judged += 1), scan.prune(path, kind));
  const options = withRules ? { select: () => true, ...scan, prune } : { select: () => true };
  const read: string[] = [];
  let unread = 0;
  for await (const batch of replayScan(fs, at(), snapshot, snapshot.top, options, judges)) {
    unread += batch.nothing?.reduce((sum, files) => sum + files, 0) ?? 0;
    for (const entry of batch.selected) {
      const verdict = entry.stat.kind === 'file' ? (entry.verdict ?? indexed.verdict(entry.relativePath, entry.stat)) : 'directory';
      if (verdict === 'search') read.push(entry.relativePath);
      else if (verdict === 'no-match') unread += 1;
    }
  }
  return { read, unread, ignored: rules.ignored, unvouched: indexed.unvouched };
}

describe('verdicts a walk snapshot keeps per entry', () => {
  it('a repeated walk over unchanged files judges them from what it kept: no path lookup, no rule matched', async () => {
    const snapshot = await snapshotOf();
    const first = await replay(snapshot);
    expect(first).toEqual({ read: ['b.txt'], unread: 3, ignored: 1, unvouched: [] });
    await replay(snapshot);
    lookups = 0;
    judged = 0;
    expect(await replay(snapshot)).toEqual(first);
    expect(lookups).toBe(0);
    expect(judged).toBe(0);
  });

  it("is dropped when the index changes: a file indexed again is judged by what it holds now", async () => {
    const snapshot = await snapshotOf();
    await replay(snapshot);
    await replay(snapshot);
    // Same stamp, new id: a kept id would now name a dead entry, and a.txt would count unread.
    await indexFile('a.txt', 'now a needle\n');
    await indexFile('b.txt', 'a needle\n');
    const after = await replay(snapshot);
    expect(after.read).toEqual(['a.txt', 'b.txt']);
    expect(lookups).toBeGreaterThan(0);
  });

  it.each([true, false])("is dropped when the entry's stat changes: a rewritten file is read and reported unvouched (ignore rules: %s)", async (withRules) => {
    const snapshot = await snapshotOf();
    await replay(snapshot, withRules);
    await replay(snapshot, withRules);
    await fs.writeFile(at('a.txt'), new TextEncoder().encode('hay and a needle\n'), { mode: 'overwrite' } as never);
    expect(await applyTreeChanges(fs, root, snapshot, ['a.txt'])).toBe('exact');
    const after = await replay(snapshot, withRules);
    expect(after.read.slice(0, 2)).toEqual(['a.txt', 'b.txt']);
    expect(after.unvouched).toEqual(['a.txt']);
  });

  it('is dropped when a rule file above the start changes; a rule file in the tree means a walk', async () => {
    const snapshot = await snapshotOf();
    await replay(snapshot);
    await replay(snapshot);
    fs.seedFile('/ws/.git/info/exclude', 'b.txt\n');
    const after = await replay(snapshot);
    expect(after.read).toEqual([]);
    expect(after.ignored).toBe(2);
    fs.seedFile('/ws/src/.gitignore', '!*.log\n');
    expect(await applyTreeChanges(fs, root, snapshot, ['src/.gitignore'])).toBe('rewalk');
  });

  it('a kept verdict stands only for its own entry: a new file beside vouched ones is judged afresh', async () => {
    const snapshot = await snapshotOf();
    await replay(snapshot);
    await replay(snapshot);
    fs.seedFile('/ws/src/e.ts', 'needle\n');
    fs.seedFile('/ws/src/f.log', 'needle\n');
    expect(await applyTreeChanges(fs, root, snapshot, ['src/e.ts', 'src/f.log'])).toBe('exact');
    const after = await replay(snapshot);
    expect(after).toEqual({ read: ['b.txt', 'src/e.ts'], unread: 3, ignored: 2, unvouched: ['src/e.ts'] });
  });
});
