import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { planIndexedSearch } from '../../../src/domain/search/index-freshness.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { type FileStamp, TrigramIndex } from '../../../src/domain/search/trigram-index.js';

/**
 * Differential: after random edits, creates, deletes, renames and link swaps (each marked as the
 * change feed marks it), the files an indexed search finds matching lines in equal those a scan of
 * every file finds. The index is only updated through the plan, as grep would update it.
 */
interface DiskFile {
  readonly text: string;
  readonly stamp: FileStamp;
}

const WORDS = ['needle', 'Needle', 'hay', 'stack', 'foo', 'bar', 'kiss', 'KISS', 'é', '\n', ' ', '42'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(''));
const name = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const operation = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path: name, text }),
  fc.record({ kind: fc.constant('delete' as const), path: name }),
  fc.record({ kind: fc.constant('rename' as const), path: name, to: name }),
  fc.record({ kind: fc.constant('swap' as const), path: name }),
);
const PATTERNS = ['needle', 'needle|stack', 'hay.*bar', 'kiss', 'n[e]+dle', '\\d\\d', 'foo(bar)?', 'é', '^hay', 'stack$', '(?i)NEEDLE'];

/** Another text of the same length ("hay" and "bar" trade places), as a link swapped in may hold. */
const SWAP: Readonly<Record<string, string>> = { h: 'b', b: 'h', y: 'r', r: 'y' };
const swapped = (body: string): string => body.replace(/[hbyr]/g, (char) => SWAP[char]!);

let clock = 0;
const tick = (): number => (clock += 1);

describe('indexed search against a scan', () => {
  it('finds exactly the files a scan finds, under random changes', async () => {
    const engine = new Re2RegexEngine();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(name, text),
        fc.array(operation, { maxLength: 8 }),
        fc.constantFrom(...PATTERNS),
        fc.boolean(),
        async (initial, operations, pattern, caseInsensitive) => {
          const disk = new Map<string, DiskFile>();
          const index = new TrigramIndex(1 << 20);
          for (const [path, body] of Object.entries(initial)) {
            disk.set(path, { text: body, stamp: { size: body.length, modifiedMs: 0, inode: tick() } });
            index.add(path, disk.get(path)!.stamp, body);
          }
          const changed = new Set<string>();
          for (const op of operations) {
            const file = disk.get(op.path);
            changed.add(op.path);
            if (op.kind === 'write') disk.set(op.path, { text: op.text, stamp: { size: op.text.length, modifiedMs: tick(), inode: file?.stamp.inode ?? tick() } });
            if (op.kind === 'delete') disk.delete(op.path);
            if (op.kind === 'rename' && file) {
              disk.delete(op.path);
              disk.set(op.to, file);
              changed.add(op.to);
            }
            // A swap keeps size and mtime but is another file: only the inode tells.
            if (op.kind === 'swap' && file) disk.set(op.path, { text: swapped(file.text), stamp: { ...file.stamp, inode: tick() } });
          }
          const matcher = engine.compile(pattern, { caseInsensitive });
          const hasMatch = (path: string): boolean => disk.get(path)!.text.split('\n').some((line) => matcher.test(line));
          const plan = await planIndexedSearch({
            index,
            query: trigramQueryOf(pattern, { caseInsensitive }),
            changed,
            stampNow: async (path) => disk.get(path)?.stamp,
          });
          const indexed = plan!.search.filter(hasMatch);
          const scanned = [...disk.keys()].filter(hasMatch).sort();
          expect(indexed).toEqual(scanned);
          // What the plan taught the index leaves it equal to a fresh build for the next search.
          for (const path of plan!.gone) index.remove(path);
          for (const path of plan!.reindex) index.add(path, disk.get(path)!.stamp, disk.get(path)!.text);
          const again = await planIndexedSearch({ index, query: trigramQueryOf(pattern, { caseInsensitive }), changed: [], stampNow: async (path) => disk.get(path)?.stamp });
          expect(again!.search.filter(hasMatch)).toEqual(scanned);
        },
      ),
      { numRuns: 1500, seed: 2026 },
    );
  });
});
