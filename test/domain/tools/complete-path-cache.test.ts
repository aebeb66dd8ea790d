import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { ListingCache, MAX_CACHED_LISTINGS } from '../../../src/domain/listing-cache.js';
import { CompletePath } from '../../../src/domain/tools/complete-path.js';
import { rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

/** Counts the listings the completion asks the file system for. */
class CountingFileSystem extends InMemoryFileSystem {
  listed = 0;
  override readDirectory(path: RootPath, options?: { describeLinks?: boolean }) {
    this.listed += 1;
    return super.readDirectory(path, options);
  }
}

function world() {
  const fs = new CountingFileSystem();
  fs.seedDirectory('/ws');
  for (let i = 0; i < 2000; i += 1) fs.seedFile(`/ws/big/f${String(i).padStart(4, '0')}.txt`, '');
  fs.seedDirectory('/ws/big/sub');
  return { fs, complete: new CompletePath(rootAccess(makeRoot('workspace', '/ws')), fs) };
}

describe('CompletePath keeps a folder\'s listing per version of the folder (issue 33 §5)', () => {
  it('a second completion in the same folder does not list it again, whatever the prefix', async () => {
    const { fs, complete } = world();
    const first = await complete.paths('workspace', 'big/f1');
    expect(first).toMatchObject({ total: 1000, hasMore: true });
    expect(first.values[0]).toBe('big/f1000.txt');
    expect(await complete.paths('workspace', 'big/s')).toEqual({ values: ['big/sub/'], total: 1, hasMore: false });
    expect(await complete.paths('workspace', 'big/f1999')).toEqual({ values: ['big/f1999.txt'], total: 1, hasMore: false });
    expect(fs.listed).toBe(1);
  });

  it('a folder changed since is listed again: an entry added, removed, or turned into a folder', async () => {
    const { fs, complete } = world();
    await complete.paths('workspace', 'big/n');
    fs.seedFile('/ws/big/new.txt', '');
    expect(await complete.paths('workspace', 'big/n')).toEqual({ values: ['big/new.txt'], total: 1, hasMore: false });
    await fs.removeFile({ root: makeRoot('workspace', '/ws'), segments: ['big', 'new.txt'] });
    fs.seedDirectory('/ws/big/new.txt');
    expect(await complete.paths('workspace', 'big/n')).toEqual({ values: ['big/new.txt/'], total: 1, hasMore: false });
    expect(fs.listed).toBe(3);
  });

  it('Security: a folder holding a link is listed afresh each time (its target may change without the folder)', async () => {
    const { fs, complete } = world();
    fs.seedDirectory('/ws/in');
    fs.seedSymlink('/ws/big/link', '../in');
    expect((await complete.paths('workspace', 'big/l')).values).toEqual(['big/link/']);
    fs.seedSymlink('/ws/big/link', '/outside');
    expect((await complete.paths('workspace', 'big/l')).values).toEqual(['big/link']);
    expect(fs.listed).toBe(2);
  });

  it('ListingCache keeps at most MAX_CACHED_LISTINGS folders, least recently used dropped first', async () => {
    const cache = new ListingCache<string[]>();
    let reads = 0;
    const read = async () => {
      reads += 1;
      return ['a'];
    };
    for (let i = 0; i <= MAX_CACHED_LISTINGS; i += 1) await cache.get(`v${i}`, read);
    expect(reads).toBe(MAX_CACHED_LISTINGS + 1);
    await cache.get(`v${MAX_CACHED_LISTINGS}`, read);
    expect(reads).toBe(MAX_CACHED_LISTINGS + 1);
    await cache.get('v0', read);
    expect(reads).toBe(MAX_CACHED_LISTINGS + 2);
    await cache.get(undefined, read);
    await cache.get(undefined, read);
    expect(reads).toBe(MAX_CACHED_LISTINGS + 4);
  });
});
