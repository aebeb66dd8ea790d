import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TreeChangeListener } from '../../../../src/domain/ports/file-watcher.port.js';
import { memoryFixture, nodeFixture, type WatcherFixture } from './watch-fixtures.js';

/** The shared fixture, with `write`: a file changed as that adapter's world changes it. */
interface TreeFixture extends WatcherFixture {
  write(path: string, text: string): Promise<void>;
}

async function nodeTree(): Promise<TreeFixture & Awaited<ReturnType<typeof nodeFixture>>> {
  const fixture = await nodeFixture();
  return { ...fixture, write: async (path, text) => writeFileSync(fixture.host(path), text) };
}

async function memoryTree(): Promise<TreeFixture> {
  const fixture = await memoryFixture();
  // The in-memory world's writes are told by whoever makes them (the change feed, in the server).
  const write = async (path: string, text: string) => {
    const segments = path.split('/');
    await fixture.fs.writeFile({ root: fixture.root, segments }, new TextEncoder().encode(text), { mode: 'overwrite' } as never);
    fixture.watcher.changed({ root: fixture.root, segments });
  };
  return { ...fixture, write };
}

function recorder(): TreeChangeListener & { paths: string[]; lost: number; settle(): Promise<void> } {
  const paths: string[] = [];
  const heard = { paths, lost: 0 };
  return Object.assign(heard, {
    changed: (path: string) => void paths.push(path),
    unknown: () => void (heard.lost += 1),
    // Kernel events arrive in the event loop's poll phase: give them a moment on a loaded machine.
    settle: async () => {
      for (let i = 0; i < 50 && paths.length === 0 && heard.lost === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 30));
    },
  });
}

describe.each([
  ['NodeFileWatcher', nodeTree],
  ['InMemoryFileWatcher', memoryTree],
])('FileWatcher.watchTree contract: %s', (_name, make) => {
  let fixture: TreeFixture;

  beforeEach(async () => {
    fixture = await make();
  });

  afterEach(() => fixture.cleanup());

  it('tells the root-relative path of a file changed in any watched directory', async () => {
    const heard = recorder();
    const watch = await fixture.watcher.watchTree(fixture.root, ['', 'dir'], heard);
    await fixture.write('dir/b.txt', 'changed');
    await fixture.write('a.txt', 'changed');
    await heard.settle();
    expect(new Set(heard.paths)).toEqual(new Set(['dir/b.txt', 'a.txt']));
    expect(heard.lost).toBe(0);
    watch.close();
  });

  it('cannot vouch for a directory a read refuses: missing, or a link leading outside', async () => {
    for (const directory of ['missing', 'out']) {
      const heard = recorder();
      const watch = await fixture.watcher.watchTree(fixture.root, ['', directory], heard);
      expect(heard.lost).toBe(1);
      watch.close();
    }
  });
});

describe('NodeFileWatcher.watchTree sees changes made by anyone', () => {
  let fixture: Awaited<ReturnType<typeof nodeTree>>;

  beforeEach(async () => {
    fixture = await nodeTree();
  });

  afterEach(() => fixture.cleanup());

  it('gives way to other I/O while it starts watching many directories, and watches them all', async () => {
    const directories = Array.from({ length: 400 }, (_, n) => `many/d${n}`);
    for (const directory of directories) mkdirSync(fixture.host(directory), { recursive: true });
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const heard = recorder();
    const watch = await fixture.watcher.watchTree(fixture.root, ['', 'many', ...directories], heard);
    clearInterval(ticker);
    // Started in one go, no timer could run before it ended.
    expect(turns).toBeGreaterThan(0);
    writeFileSync(fixture.host('many/d399/last.txt'), 'x');
    await heard.settle();
    expect(heard.paths).toContain('many/d399/last.txt');
    watch.close();
  });

  it('creates, removes and renames, by name; a new directory is told', async () => {
    const heard = recorder();
    const watch = await fixture.watcher.watchTree(fixture.root, ['', 'dir'], heard);
    writeFileSync(fixture.host('dir/new.txt'), 'x');
    renameSync(fixture.host('a.txt'), fixture.host('dir/moved.txt'));
    mkdirSync(fixture.host('fresh'));
    await heard.settle();
    expect(new Set(heard.paths)).toEqual(new Set(['dir/new.txt', 'a.txt', 'dir/moved.txt', 'fresh']));
    watch.close();
  });

  it('a watched directory swapped for a link to outside: told, and nothing of the outside ever is', async () => {
    const heard = recorder();
    const watch = await fixture.watcher.watchTree(fixture.root, ['', 'dir'], heard);
    // Moved away (still the same inode, still watched by inotify), and a link to outside in its place.
    renameSync(fixture.host('dir'), join(fixture.outside, 'dir'));
    symlinkSync(fixture.outside, fixture.host('dir'));
    await heard.settle();
    expect(heard.paths).toContain('dir');
    heard.paths.length = 0;
    writeFileSync(join(fixture.outside, 'dir', 'b.txt'), 'outside now');
    writeFileSync(join(fixture.outside, 'secret.txt'), 'changed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard.paths).toEqual([]);
    expect(heard.lost).toBe(0);
    watch.close();
  });

  it('a watched directory removed: told, and its watch closed', async () => {
    const heard = recorder();
    const watch = await fixture.watcher.watchTree(fixture.root, ['', 'dir'], heard);
    rmSync(fixture.host('dir'), { recursive: true });
    await heard.settle();
    expect(heard.paths).toContain('dir');
    watch.close();
  });
});
