import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { InMemoryIndexStore } from '../../../src/adapters/outbound/in-memory-index-store.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { Root } from '../../../src/domain/roots.js';
import { IgnoreRuleCache } from '../../../src/domain/search/ignore-rule-cache.js';
import { IndexPersistence, type IndexPersistenceSettings } from '../../../src/domain/search/index-persistence.js';
import { SearchIndexes, type SearchIndexSettings } from '../../../src/domain/search/search-indexes.js';
import { STORED_INDEX_VERSION } from '../../../src/domain/search/stored-index.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';
import { Grep } from '../../../src/domain/tools/grep.js';
import { rootAccess } from '../../support/domain.js';
import { RecordingLogger } from '../../support/recording-logger.js';
import { makeRoot } from '../../support/roots.js';
import { searchSettings, SteppingClock } from '../tools/search-harness.js';

const INDEX: SearchIndexSettings = { mode: 'auto', maxBytes: 1 << 20, minRootBytes: 0, maxFileBytes: 1 << 20, ignore: 'gitignore' };
/** These few short files' index is larger than their text: no share bound here (it has its own case). */
const KEEP_ALL: IndexPersistenceSettings = { maxBytes: 1 << 20, maxTextShare: 1000, minShareBound: 0, debounceMs: 5 };
const idle = async () => undefined;

let fs: InMemoryFileSystem;
let store: InMemoryIndexStore;
let logger: RecordingLogger;
let root: Root;
let walks: number;

/** The in-memory file system, counting tree walks (a build walks the root; a stored index spares it). */
function counting(): FileSystemPort {
  const port: FileSystemPort = Object.create(fs);
  port.scanTree = (path, options) => {
    walks += 1;
    return fs.scanTree(path, options);
  };
  return port;
}

/** A "server run": indexes over the file system, kept in `store`. */
function run(settings: IndexPersistenceSettings = KEEP_ALL) {
  const persistence = new IndexPersistence(store, logger, settings);
  const indexes = new SearchIndexes(counting(), INDEX, new IgnoreRuleCache(), persistence);
  const load = persistence.load.bind(persistence);
  let reading: Promise<unknown> = Promise.resolve();
  persistence.load = (...args) => {
    const read = load(...args);
    reading = read.catch(() => undefined);
    return read;
  };
  /** The root's index once its stored index (if any) has been read: a search never waits for that. */
  const loaded = async (at: Root) => {
    indexes.ready(at);
    await reading;
    await new Promise((resolve) => setImmediate(resolve));
    return indexes.ready(at);
  };
  return { persistence, indexes, loaded };
}

function grep(indexes: SearchIndexes, pattern: string) {
  const grepper = new Grep(counting(), new SteppingClock(0), new Re2RegexEngine(), searchSettings(1000), rootAccess(root), new IgnoreRuleCache(), indexes);
  return grepper.execute({ root: 'workspace', pattern });
}

async function storedByABuild(): Promise<void> {
  const { indexes } = run();
  indexes.ready(root);
  await indexes.settled(root);
  for (let waited = 0; store.names().length === 0 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
  expect({ stored: store.names(), log: logger.entries.map((entry) => entry.message) }).toEqual({ stored: ['workspace'], log: [expect.stringMatching(/^search index of root "workspace" stored: \d+ bytes$/)] });
  logger.entries.length = 0;
}

/** A copy of `bytes` with the byte at `at` (from the end when negative) changed. */
function changed(bytes: Uint8Array | undefined, at: number, change: (byte: number) => number): Uint8Array {
  const copy = bytes!.slice();
  const where = at < 0 ? copy.length + at : at;
  copy[where] = change(copy[where]!);
  return copy;
}

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  root = makeRoot('workspace', '/ws', ['*']);
  store = new InMemoryIndexStore();
  logger = new RecordingLogger();
  walks = 0;
  fs.seedFile('/ws/src/a.ts', 'export const needle = 1;\n');
  fs.seedFile('/ws/src/b.ts', 'const hay = 2;\n');
  fs.seedFile('/ws/docs/c.md', 'no needle here\n', { modifiedAt: new Date(1000) });
});

describe('a stored search index', () => {
  it('is saved after a build, and a later run searches from it without building, finding files changed since', async () => {
    await storedByABuild();
    // While "the server was down": one file rewritten, one created, one deleted.
    fs.seedFile('/ws/src/b.ts', 'const hay = 2; // a needle now\n');
    fs.seedFile('/ws/src/new.ts', 'needle\n');
    await fs.removeFile({ root, segments: ['src', 'a.ts'] });
    walks = 0;
    const { indexes, persistence, loaded } = run();
    const index = await loaded(root);
    expect(persistence.loads).toBe(1);
    expect(index?.paths().sort()).toEqual(['docs/c.md', 'src/a.ts', 'src/b.ts']);
    expect(logger.entries).toEqual([expect.objectContaining({ level: 'info', message: 'search index of root "workspace" loaded from the state directory' })]);
    const found = await grep(indexes, 'needle');
    expect(found.matches.map((match) => match.file).sort()).toEqual(['docs/c.md', 'src/b.ts', 'src/new.ts']);
    // The only walk is the grep's own: no build ran.
    expect(walks).toBe(1);
  });

  it("is never waited for: a root's first grep scans while the stored index loads, and a later grep uses it", async () => {
    await storedByABuild();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.create(store) as InMemoryIndexStore;
    slow.load = async (name) => (await held, store.load(name));
    const persistence = new IndexPersistence(slow, logger, KEEP_ALL);
    const indexes = new SearchIndexes(counting(), INDEX, new IgnoreRuleCache(), persistence);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waited'>((resolve) => (timer = setTimeout(() => resolve('waited'), 2000)));
    const first = await Promise.race([grep(indexes, 'needle'), waited]);
    clearTimeout(timer);
    expect(first).not.toBe('waited');
    if (first === 'waited') return release();
    expect(first.matches.map((match) => match.file).sort()).toEqual(['docs/c.md', 'src/a.ts']);
    expect(persistence.loads).toBe(0);
    release();
    await indexes.settled(root);
    expect(indexes.ready(root)?.paths().sort()).toEqual(['docs/c.md', 'src/a.ts', 'src/b.ts']);
    expect(persistence.loads).toBe(1);
    walks = 0;
    expect((await grep(indexes, 'needle')).matches.map((match) => match.file).sort()).toEqual(['docs/c.md', 'src/a.ts']);
    // The grep's own walk only: the loaded index spared a build.
    expect(walks).toBe(1);
  });

  it('is saved again after a refresh learns the files a grep had to read', async () => {
    await storedByABuild();
    const first = await store.load('workspace');
    const { indexes, loaded } = run();
    await loaded(root);
    fs.seedFile('/ws/src/new.ts', 'needle\n');
    await grep(indexes, 'needle');
    await indexes.settled(root);
    for (let waited = 0; waited < 2000; waited += 5) {
      const now = await store.load('workspace');
      if (now !== undefined && now.length !== first!.length) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { loaded: third } = run();
    expect((await third(root))?.paths()).toContain('src/new.ts');
  });

  it('of another tree (the root re-pointed), another format or with a flipped bit is ignored, logged, removed and rebuilt', async () => {
    const spoil = [
      async () => store.repoint('/ws'),
      async () => store.save('workspace', changed(await store.load('workspace'), 4, () => STORED_INDEX_VERSION + 1)),
      async () => store.save('workspace', changed(await store.load('workspace'), -9, (byte) => byte ^ 0x10)),
      async () => store.save('workspace', (await store.load('workspace'))!.subarray(0, 40)),
    ];
    for (const [at, change] of spoil.entries()) {
      // Each round its own store and log: the last round's rebuild saves a while after it.
      store = new InMemoryIndexStore();
      logger = new RecordingLogger();
      await storedByABuild();
      await change();
      logger.entries.length = 0;
      walks = 0;
      const { indexes, persistence, loaded } = run();
      expect(await loaded(root)).toBeUndefined();
      expect(persistence.loads).toBe(0);
      expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
      expect(logger.entries[0]!.message).toMatch(/^stored search index of root "workspace" ignored \((built from another tree|format version|checksum|cut short)/);
      expect(store.names()).toEqual([]);
      await indexes.settled(root);
      expect(walks).toBe(1);
      expect([at, indexes.ready(root)?.size]).toEqual([at, 3]);
    }
  });

  it('is bounded by max_bytes and by a share of the text it indexes (15% by default)', async () => {
    const index = new TrigramIndex(1 << 20);
    for (let n = 0; n < 50; n += 1) index.add(`f${n}.txt`, { size: 2000, modifiedMs: n, inode: n }, `${'word '.repeat(380)} unique${n}\n`);
    const save = (settings: Partial<IndexPersistenceSettings>) => new IndexPersistence(store, logger, { ...KEEP_ALL, maxTextShare: 1, ...settings }).save(root, index, idle);
    expect(await save({})).toBe('saved');
    const size = (await store.load('workspace'))!.length;
    // 100 kB of repetitive text: its index is a few kB, well under 15%.
    expect(size).toBeLessThan(0.15 * 100_000);
    expect(await save({ maxBytes: size - 1 })).toBe('too-large');
    expect(store.names()).toEqual([]);
    expect(await save({ maxTextShare: 0.15 })).toBe('saved');
    expect(await save({ maxTextShare: (size - 1) / 100_000 })).toBe('too-large');
    expect(store.names()).toEqual([]);
    // The encode stopped at the bound, so the line names the bound, not a size it never reached.
    expect(logger.entries.filter((entry) => entry.message.includes('not stored')).map((entry) => entry.message)).toEqual([
      `search index of root "workspace" not stored: over its bound of ${size - 1} bytes`,
      expect.stringMatching(/^search index of root "workspace" not stored: over its bound of \d+ bytes$/),
    ]);
    // Under minShareBound a small root's index is kept whatever its share (its paths outweigh its text).
    expect(await save({ maxTextShare: 0.001, minShareBound: size })).toBe('saved');
  });

  it('waits for the searches running before it is written', async () => {
    await storedByABuild();
    await store.remove('workspace');
    const { indexes, loaded } = run();
    const built = await loaded(root);
    expect(built).toBeUndefined();
    await indexes.settled(root);
    const searchEnded = indexes.searchStarted();
    fs.seedFile('/ws/src/new.ts', 'needle\n');
    indexes.refresh(root, ['src/new.ts']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.names()).toEqual([]);
    searchEnded();
    for (let waited = 0; store.names().length === 0 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.names()).toEqual(['workspace']);
  });
});

describe('a save after a build', () => {
  it('waits for a pause in the searches (250 ms without one), not only for the one running', async () => {
    const { indexes } = run();
    indexes.ready(root);
    await indexes.settled(root);
    // Searches of 20 ms every 50 ms for 600 ms: never a running one past its end, never a pause of 250 ms.
    const started = performance.now();
    let paused = false;
    while (performance.now() - started < 600) {
      const ended = indexes.searchStarted();
      await new Promise((resolve) => setTimeout(resolve, 20));
      ended();
      const end = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 30));
      // (A timer late by 250 ms on a loaded machine makes a pause: from then on a save may rightly begin.)
      paused ||= performance.now() - end >= 200;
      if (!paused) expect(store.names()).toEqual([]);
    }
    const lastEnded = performance.now();
    for (let waited = 0; store.names().length === 0 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.names()).toEqual(['workspace']);
    if (!paused) expect(performance.now() - lastEnded).toBeGreaterThanOrEqual(200);
  });
});

describe('a save of a stored search index', () => {
  it('gives way to other work while it encodes, and a refresh of the index waits until the encode ends', async () => {
    for (let n = 0; n < 3000; n += 1) fs.seedFile(`/ws/many/f-${n}.txt`, `line unique_${n} needle_${n % 7}\n`);
    const { indexes, persistence, loaded } = run({ ...KEEP_ALL, maxBytes: 1 << 26, debounceMs: 60_000, sliceMs: 0 });
    indexes.ready(root);
    await indexes.settled(root);
    const index = await loaded(root);
    expect(index?.size).toBeGreaterThan(3000);
    // The encode's pauses are held open by hand: while one is held, the index must not change.
    let pauses = 0;
    let release: () => void = () => undefined;
    const held = () =>
      new Promise<void>((resolve) => {
        pauses += 1;
        release = resolve;
      });
    const saving = persistence.save(root, index!, held);
    const turns = async (until: () => boolean) => {
      for (let waited = 0; !until() && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // Save first awaits idle() once before it encodes: let it start.
    await turns(() => pauses >= 1);
    release();
    for (let waited = 0; pauses < 2 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pauses).toBeGreaterThanOrEqual(2);
    expect(persistence.encoding('workspace')).toBeDefined();
    // A grep reads a file the index does not know, so the index is refreshed in the background.
    fs.seedFile('/ws/src/late.ts', 'needle late\n');
    const found = await grep(indexes, 'needle late');
    expect(found.matches.map((match) => match.file)).toEqual(['src/late.ts']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(index!.fileAt('src/late.ts')).toBeUndefined();
    // Let the encode run to its end: then the refresh goes on.
    for (let turns = 0; persistence.encoding('workspace') !== undefined && turns < 10_000; turns += 1) {
      release();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await saving).toBe('saved');
    await indexes.settled(root);
    expect(index!.fileAt('src/late.ts')).toBeDefined();
    // What was stored is the index as it was when the encode began: without the late file.
    const { loaded: next } = run();
    expect((await next(root))?.fileAt('src/late.ts')).toBeUndefined();
  });
});
