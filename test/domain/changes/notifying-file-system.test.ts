import { createHash } from 'node:crypto';
import { InProcessChangeFeed } from '../../../src/adapters/outbound/feed/in-process-change-feed.js';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { NotifyingFileSystem } from '../../../src/domain/changes/notifying-file-system.js';
import { RootKeys } from '../../../src/domain/changes/root-keys.js';
import type { EntryChange } from '../../../src/domain/ports/change-feed.port.js';
import { Copy } from '../../../src/domain/tools/copy.js';
import { CreateFolder } from '../../../src/domain/tools/create-folder.js';
import { Move } from '../../../src/domain/tools/move.js';
import { PatchFile } from '../../../src/domain/tools/patch-file.js';
import { ReadFile } from '../../../src/domain/tools/read-file.js';
import { RemoveFile } from '../../../src/domain/tools/remove-file.js';
import { RemoveFolder } from '../../../src/domain/tools/remove-folder.js';
import { WriteFile } from '../../../src/domain/tools/write-file.js';
import { domainError, rootAccess, TEST_SETTINGS } from '../../support/domain.js';
import { journalWorld } from './journal-world.js';
import { makeRoot } from '../../support/roots.js';

const W = 'workspace';
const keyOf = (hostPath: string) => createHash('sha256').update(hostPath).digest('hex').slice(0, 16);

/** The file tools over the notifying file system around an in-memory tree; `published` is what the feed carried. */
function world() {
  const tree = new InMemoryFileSystem();
  tree.seedFile('/ws/a.txt', 'a');
  tree.seedFile('/ws/gone.txt', 'gone');
  tree.seedFile('/ws/src.txt', 'src');
  tree.seedFile('/ws/tree/sub/x.txt', 'x');
  tree.seedDirectory('/other');
  const feed = new InProcessChangeFeed();
  const published: EntryChange[] = [];
  feed.subscribe((change) => published.push(change));
  const fs = new NotifyingFileSystem(tree, feed, new RootKeys(new NodeContentHasher()));
  const access = rootAccess(makeRoot(W, '/ws'), makeRoot('other', '/other'));
  return {
    published,
    writeFile: new WriteFile(access, fs, TEST_SETTINGS),
    patchFile: new PatchFile(access, fs, TEST_SETTINGS),
    readFile: new ReadFile(access, fs, TEST_SETTINGS),
    removeFile: new RemoveFile(access, fs),
    removeFolder: new RemoveFolder(access, fs),
    createFolder: new CreateFolder(access, fs),
    copy: new Copy(fs, access),
    move: new Move(fs, access),
  };
}

describe('NotifyingFileSystem (the publish point of every write)', () => {
  it('publishes each write of each tool once it is done: the entry, the folders it made, both ends of a move', async () => {
    const w = world();
    const ws = keyOf('/ws');
    const told = async (write: () => Promise<unknown>) => {
      w.published.length = 0;
      await write();
      return [...w.published];
    };
    expect(await told(() => w.writeFile.execute({ root: W, path: 'a.txt', content: 'two' }))).toEqual([{ rootKey: ws, paths: [['a.txt']] }]);
    expect(await told(() => w.writeFile.execute({ root: W, path: 'n/m/f.txt', content: 'f' }))).toEqual([{ rootKey: ws, paths: [['n', 'm', 'f.txt'], ['n']] }]);
    expect(await told(() => w.patchFile.execute({ root: W, path: 'a.txt', patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n\\ No newline at end of file\n+three\n' }))).toEqual([
      { rootKey: ws, paths: [['a.txt']] },
    ]);
    expect(await told(() => w.createFolder.execute({ root: W, path: 'new/deep' }))).toEqual([{ rootKey: ws, paths: [['new']] }]);
    expect(await told(() => w.removeFile.execute({ root: W, path: 'gone.txt' }))).toEqual([{ rootKey: ws, paths: [['gone.txt']] }]);
    expect(await told(() => w.removeFolder.execute({ root: W, path: 'tree' }))).toEqual([{ rootKey: ws, paths: [['tree']] }]);
    expect(await told(() => w.copy.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'copy.txt' }))).toEqual([
      { rootKey: ws, paths: [['copy.txt']] },
    ]);
    expect(await told(() => w.move.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'moved.txt' }))).toEqual([
      { rootKey: ws, paths: [['src.txt'], ['moved.txt']] },
    ]);
  });

  it('a move between two roots tells each root its own end', async () => {
    const w = world();
    await w.move.execute({ source_root: W, source_path: 'src.txt', dest_root: 'other', dest_path: 'src.txt' });
    expect(w.published).toEqual([
      { rootKey: keyOf('/ws'), paths: [['src.txt']] },
      { rootKey: keyOf('/other'), paths: [['src.txt']] },
    ]);
  });

  it('Security: a change names its root by key and the entry by in-root segments, never a host path', async () => {
    const w = world();
    await w.writeFile.execute({ root: W, path: 'deep/er/file.txt', content: 'x' });
    await w.move.execute({ source_root: W, source_path: 'deep', dest_root: 'other', dest_path: 'deep' });
    expect(w.published.length).toBeGreaterThan(0);
    expect(JSON.stringify(w.published)).not.toMatch(/\/ws|\/other/);
  });

  it('publishes nothing for reads, refused writes, or a folder that already existed', async () => {
    const w = world();
    await w.readFile.execute({ root: W, path: 'a.txt' });
    await domainError(w.writeFile.execute({ root: W, path: 'a.txt', content: 'x', mode: 'create_only' }));
    await domainError(w.writeFile.execute({ root: W, path: '../outside.txt', content: 'x' }));
    await domainError(w.removeFile.execute({ root: W, path: 'missing.txt' }));
    await w.createFolder.execute({ root: W, path: 'tree/sub' });
    expect(w.published).toEqual([]);
  });

  it('finds the top folder a write or create_folder makes in a few lookups, even 1,000 folders deep', async () => {
    const tree = new InMemoryFileSystem();
    tree.seedDirectory('/ws/tree/sub');
    let lookups = 0;
    const stat = tree.stat.bind(tree);
    tree.stat = (path, options) => {
      lookups += 1;
      return stat(path, options);
    };
    const feed = new InProcessChangeFeed();
    const published: EntryChange[] = [];
    feed.subscribe((change) => published.push(change));
    const fs = new NotifyingFileSystem(tree, feed, new RootKeys(new NodeContentHasher()));
    const access = rootAccess(makeRoot(W, '/ws'));
    await new WriteFile(access, fs, TEST_SETTINGS).execute({ root: W, path: `tree/sub/${'d/'.repeat(1000)}f.txt`, content: 'x' });
    await new CreateFolder(access, fs).execute({ root: W, path: `tree/${'c/'.repeat(250)}` });
    expect(published.map((change) => change.paths.map((path) => path.slice(0, 3).join('/')))).toEqual([['tree/sub/d', 'tree/sub/d'], ['tree/c']]);
    expect(lookups).toBeLessThan(60);
  });

  it('in front of the journal: a write into new folders is published with the top folder and journaled once, as without it', async () => {
    const journaled = journalWorld();
    const feed = new InProcessChangeFeed();
    const published: EntryChange[] = [];
    feed.subscribe((change) => published.push(change));
    const fs = new NotifyingFileSystem(journaled.fs, feed, new RootKeys(new NodeContentHasher()));
    const writeFile = new WriteFile(rootAccess(makeRoot(W, '/ws')), fs, TEST_SETTINGS);
    await writeFile.execute({ root: W, path: 'n/m/f.txt', content: 'f' });
    await writeFile.execute({ root: W, path: 'n/m/f.txt', content: 'g' });
    expect(published).toEqual([
      { rootKey: keyOf('/ws'), paths: [['n', 'm', 'f.txt'], ['n']] },
      { rootKey: keyOf('/ws'), paths: [['n', 'm', 'f.txt']] },
    ]);
    const changes = await journaled.journal.list({});
    expect(changes.map((change) => [change.op, change.path])).toEqual([
      ['modify', 'n/m/f.txt'],
      ['create', 'n/m/f.txt'],
      ['mkdir', 'n'],
    ]);
  });
});
