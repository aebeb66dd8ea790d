import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { IndexedLookup } from '../../../src/domain/search/index-freshness.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { type FileStamp, TrigramIndex } from '../../../src/domain/search/trigram-index.js';

/**
 * Differential: after random edits, creates, deletes, renames and link swaps (each seen by the
 * stamps a walk takes), the files an indexed search finds matching lines in equal those a scan of
 * every file finds, before and after the index learns the changes.
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
          for (const op of operations) {
            const file = disk.get(op.path);
            if (op.kind === 'write') disk.set(op.path, { text: op.text, stamp: { size: op.text.length, modifiedMs: tick(), inode: file?.stamp.inode ?? tick() } });
            if (op.kind === 'delete') disk.delete(op.path);
            if (op.kind === 'rename' && file) {
              disk.delete(op.path);
              disk.set(op.to, file);
            }
            // A swap keeps size and mtime but is another file: only the inode tells.
            if (op.kind === 'swap' && file) disk.set(op.path, { text: swapped(file.text), stamp: { ...file.stamp, inode: tick() } });
          }
          const matcher = engine.compile(pattern, { caseInsensitive });
          const hasMatch = (path: string): boolean => disk.get(path)!.text.split('\n').some((line) => matcher.test(line));
          const statNow = (path: string) => ({ size: disk.get(path)!.stamp.size, modifiedAt: new Date(disk.get(path)!.stamp.modifiedMs), inode: disk.get(path)!.stamp.inode! });
          const indexedSearch = () => {
            const lookup = new IndexedLookup(index, trigramQueryOf(pattern, { caseInsensitive }));
            return [...disk.keys()].sort().filter((path) => lookup.verdict(path, statNow(path)) === 'search' && hasMatch(path));
          };
          const scanned = [...disk.keys()].sort().filter(hasMatch);
          expect(indexedSearch()).toEqual(scanned);
          // Files read again and indexed anew (as the build refreshes them) leave the answers equal.
          for (const path of index.paths()) if (!disk.has(path)) index.remove(path);
          for (const [path, file] of disk) index.add(path, file.stamp, file.text);
          expect(indexedSearch()).toEqual(scanned);
        },
      ),
      { numRuns: 1500, seed: 2026 },
    );
  });
});
