import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RootPath } from '../../../../src/domain/roots.js';
import { memoryFixture, nodeFixture, type WatcherFixture } from './watch-fixtures.js';
import { domainError } from '../../../support/domain.js';

describe.each([
  ['NodeFileWatcher', nodeFixture],
  ['InMemoryFileWatcher', memoryFixture],
])('FileWatcher contract: %s', (_name, make) => {
  let fixture: WatcherFixture;
  const at = (...segments: string[]): RootPath => ({ root: fixture.root, segments });

  beforeEach(async () => {
    fixture = await make();
  });

  afterEach(() => fixture.cleanup());

  it('refuses what a read refuses: a missing entry, anything through a link leading outside', async () => {
    expect((await domainError(fixture.watcher.watch(at('missing.txt'), 'file', () => undefined))).code).toBe('NOT_FOUND');
    expect((await domainError(fixture.watcher.watch(at('out'), 'directory', () => undefined))).code).toBe('ACCESS_DENIED');
    expect((await domainError(fixture.watcher.watch(at('out', 'secret.txt'), 'file', () => undefined))).code).toBe('ACCESS_DENIED');
    expect(fixture.watcher.size).toBe(0);
  });

  it('counts open watches; closing is idempotent and 1,000 watch/close pairs leave none', async () => {
    const file = await fixture.watcher.watch(at('a.txt'), 'file', () => undefined);
    const dir = await fixture.watcher.watch(at('dir'), 'directory', () => undefined);
    const top = await fixture.watcher.watch(at(), 'directory', () => undefined);
    expect(fixture.watcher.size).toBe(3);
    file.close();
    file.close();
    dir.close();
    top.close();
    for (let i = 0; i < 1000; i += 1) (await fixture.watcher.watch(at(i % 2 ? 'a.txt' : 'dir'), i % 2 ? 'file' : 'directory', () => undefined)).close();
    expect(fixture.watcher.size).toBe(0);
  });
});

describe('NodeFileWatcher sees changes made by anyone', () => {
  let fixture: Awaited<ReturnType<typeof nodeFixture>>;
  const at = (...segments: string[]): RootPath => ({ root: fixture.root, segments });

  beforeEach(async () => {
    fixture = await nodeFixture();
  });

  afterEach(() => fixture.cleanup());

  function counter() {
    let count = 0;
    return {
      bump: () => {
        count += 1;
      },
      get count() {
        return count;
      },
      async after(action: () => void): Promise<number> {
        const before = count;
        action();
        for (let i = 0; i < 100 && count === before; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
        // Let the rest of a burst arrive.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return count - before;
      },
    };
  }

  it('a file: content changed, replaced by rename, removed; a sibling never counts', async () => {
    const changes = counter();
    const watch = await fixture.watcher.watch(at('a.txt'), 'file', changes.bump);
    expect(await changes.after(() => writeFileSync(fixture.host('a.txt'), 'changed'))).toBeGreaterThan(0);
    expect(await changes.after(() => {
      writeFileSync(fixture.host('tmp'), 'new');
      renameSync(fixture.host('tmp'), fixture.host('a.txt'));
    })).toBeGreaterThan(0);
    expect(await changes.after(() => writeFileSync(fixture.host('sibling.txt'), 'x'))).toBe(0);
    expect(await changes.after(() => unlinkSync(fixture.host('a.txt')))).toBeGreaterThan(0);
    watch.close();
  });

  it('a directory: entries added, renamed and removed; content changes of an entry do not count', async () => {
    const changes = counter();
    const watch = await fixture.watcher.watch(at('dir'), 'directory', changes.bump);
    expect(await changes.after(() => writeFileSync(fixture.host('dir/b.txt'), 'changed in place'))).toBe(0);
    expect(await changes.after(() => writeFileSync(fixture.host('dir/new.txt'), 'x'))).toBeGreaterThan(0);
    expect(await changes.after(() => renameSync(fixture.host('dir/new.txt'), fixture.host('dir/renamed.txt')))).toBeGreaterThan(0);
    expect(await changes.after(() => unlinkSync(fixture.host('dir/renamed.txt')))).toBeGreaterThan(0);
    watch.close();
  });

  it('a file whose folder is removed and made again: later changes are seen again (issue 32)', async () => {
    const changes = counter();
    const watch = await fixture.watcher.watch(at('dir', 'b.txt'), 'file', changes.bump);
    expect(await changes.after(() => rmSync(fixture.host('dir'), { recursive: true }))).toBeGreaterThan(0);
    expect(await changes.after(() => {
      mkdirSync(fixture.host('dir'));
      writeFileSync(fixture.host('dir/b.txt'), 'again');
    })).toBeGreaterThan(0);
    // The rebuilt watch sees a change in place, and a sibling still does not count.
    expect(await changes.after(() => writeFileSync(fixture.host('dir/b.txt'), 'edited'))).toBeGreaterThan(0);
    expect(await changes.after(() => writeFileSync(fixture.host('dir/sibling.txt'), 'x'))).toBe(0);
    watch.close();
  });

  it('two levels up: a folder on the way moved away and made again, and a watched directory under it', async () => {
    mkdirSync(fixture.host('deep/er'), { recursive: true });
    writeFileSync(fixture.host('deep/er/c.txt'), 'c');
    const file = counter();
    const dir = counter();
    const fileWatch = await fixture.watcher.watch(at('deep', 'er', 'c.txt'), 'file', file.bump);
    const dirWatch = await fixture.watcher.watch(at('deep', 'er'), 'directory', dir.bump);
    expect(await file.after(() => renameSync(fixture.host('deep'), fixture.host('gone')))).toBeGreaterThan(0);
    expect(await file.after(() => mkdirSync(fixture.host('deep/er'), { recursive: true }))).toBeGreaterThan(0);
    // Let the rebuilt watches settle, then changes at the new folders are seen, and none from the moved-away one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await file.after(() => writeFileSync(fixture.host('deep/er/c.txt'), 'new'))).toBeGreaterThan(0);
    expect(await dir.after(() => writeFileSync(fixture.host('deep/er/d.txt'), 'new'))).toBeGreaterThan(0);
    expect(await file.after(() => writeFileSync(fixture.host('gone/er/c.txt'), 'old one'))).toBe(0);
    fileWatch.close();
    dirWatch.close();
    expect(fixture.watcher.size).toBe(0);
  });

  it('Security: a watched directory swapped for a link leading outside reports the swap, never the outside target', async () => {
    const changes = counter();
    const watch = await fixture.watcher.watch(at('dir'), 'directory', changes.bump);
    // The old directory moves out of the root and a link to it takes its place.
    expect(await changes.after(() => {
      renameSync(fixture.host('dir'), join(fixture.outside, 'moved'));
      symlinkSync(join(fixture.outside, 'moved'), fixture.host('dir'));
    })).toBeGreaterThan(0);
    expect(await changes.after(() => writeFileSync(join(fixture.outside, 'moved', 'planted.txt'), 'x'))).toBe(0);
    expect(await changes.after(() => rmSync(join(fixture.outside, 'moved', 'b.txt')))).toBe(0);
    watch.close();
  });
});
