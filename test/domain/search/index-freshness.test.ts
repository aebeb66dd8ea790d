import { describe, expect, it } from '@jest/globals';
import { planIndexedSearch } from '../../../src/domain/search/index-freshness.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { type FileStamp, TrigramIndex } from '../../../src/domain/search/trigram-index.js';

const stamp = (size: number, modifiedMs = 1, inode = 1): FileStamp => ({ size, modifiedMs, inode });

/** An index of two files, and the stamps the disk reports now (edited per test). */
function world() {
  const index = new TrigramIndex(4096);
  index.add('hit.ts', stamp(10), 'const needle = 1');
  index.add('miss.ts', stamp(20), 'const other = 2');
  const disk = new Map<string, FileStamp>([
    ['hit.ts', stamp(10)],
    ['miss.ts', stamp(20)],
  ]);
  const plan = (changed: string[] = []) =>
    planIndexedSearch({
      index,
      query: trigramQueryOf('needle', { caseInsensitive: false }),
      changed,
      stampNow: async (path) => disk.get(path),
    });
  return { index, disk, plan };
}

describe('planIndexedSearch', () => {
  it('reads only the candidates when nothing changed', async () => {
    const { plan } = world();
    expect(await plan()).toEqual({ search: ['hit.ts'], reindex: [], gone: [] });
  });

  it('finds a file created after the index was written', async () => {
    const { disk, plan } = world();
    disk.set('new.ts', stamp(5));
    expect(await plan(['new.ts'])).toEqual({ search: ['hit.ts', 'new.ts'], reindex: ['new.ts'], gone: [] });
  });

  it('never reports a deleted candidate', async () => {
    const { disk, plan } = world();
    disk.delete('hit.ts');
    expect(await plan()).toEqual({ search: [], reindex: [], gone: ['hit.ts'] });
  });

  it('reads a non-candidate whose stamp moved (rewritten, renamed over, or a link swap)', async () => {
    const { disk, plan } = world();
    disk.set('miss.ts', stamp(20, 1, 99));
    expect(await plan(['miss.ts'])).toEqual({ search: ['hit.ts', 'miss.ts'], reindex: ['miss.ts'], gone: [] });
  });

  it('reads a candidate whose stamp moved even if no mark said so, and reindexes it', async () => {
    const { disk, plan } = world();
    disk.set('hit.ts', stamp(11, 2));
    expect(await plan()).toEqual({ search: ['hit.ts'], reindex: ['hit.ts'], gone: [] });
  });

  it('skips a marked file whose stamp did not move and that cannot match', async () => {
    const { plan } = world();
    expect(await plan(['miss.ts'])).toEqual({ search: ['hit.ts'], reindex: [], gone: [] });
  });

  it('declines (scan instead) while the index is incomplete', async () => {
    const { index, plan } = world();
    // Every trigram of this text is new: 1000 of them cost more than the 4 KiB the index may hold.
    const distinct = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
    expect(index.add('huge.ts', stamp(3000), distinct)).toBe(false);
    expect(index.complete).toBe(false);
    expect(await plan()).toBeUndefined();
  });
});
