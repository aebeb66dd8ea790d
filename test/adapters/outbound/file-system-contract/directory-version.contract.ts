import { type ContractContext } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, seedEscapes } from './escapes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** directoryVersion: what lets a listing be used again (issue 33: completions). */
export function describeDirectoryVersionContract({ fixture, at, expectError }: ContractContext): void {
  describe('directoryVersion', () => {
    /** The version once the folder has settled (an adapter may give none for a folder changed a moment ago). */
    const settled = async (rel: string) => {
      await sleep(150);
      return fixture().fs.directoryVersion(at(rel));
    };

    it('stays the same while the folder does not change, entries\' contents included', async () => {
      await fixture().seed.file('d/a.txt', 'a');
      const before = await settled('d');
      expect(before).toEqual(expect.any(String));
      // Appended in place (no temp file, no rename): the folder's entries stay as they were.
      await fixture().fs.writeFile(at('d/a.txt'), new TextEncoder().encode(', more'), { mode: 'append', createParents: false });
      expect(await fixture().fs.directoryVersion(at('d'))).toBe(before);
    });

    it('changes (or is withheld) when an entry is added, removed or renamed, never that of other names', async () => {
      await fixture().seed.file('d/a.txt', 'a');
      const seen = new Set([await settled('d')]);
      await fixture().seed.file('d/b.txt', 'b');
      const now = await fixture().fs.directoryVersion(at('d'));
      if (now !== undefined) expect(seen.has(now)).toBe(false);
      const added = await settled('d');
      expect(seen.has(added)).toBe(false);
      seen.add(added);
      await fixture().fs.rename(at('d/b.txt'), at('d/c.txt'));
      const renamed = await settled('d');
      expect(seen.has(renamed)).toBe(false);
      await fixture().fs.removeFile(at('d/c.txt'));
      // Back to the first names: an adapter may give the first version again (the listing is the same), never another state's.
      const removed = await settled('d');
      expect([added, renamed]).not.toContain(removed);
    });

    it('differs between two folders, and between a folder and the one that replaced it', async () => {
      await fixture().seed.dir('x');
      await fixture().seed.dir('y');
      const x = await settled('x');
      expect(await fixture().fs.directoryVersion(at('y'))).not.toBe(x);
      await fixture().fs.rename(at('x'), at('gone'));
      await fixture().fs.rename(at('y'), at('x'));
      expect(await settled('x')).not.toBe(x);
    });

    it('refuses like readDirectory: missing, a file, through a link leading outside', async () => {
      await fixture().seed.file('a.txt', 'a');
      await expectError(fixture().fs.directoryVersion(at('missing')), 'NOT_FOUND');
      await expectError(fixture().fs.directoryVersion(at('a.txt')), 'NOT_A_DIRECTORY');
      await seedEscapes(fixture());
      for (const [, rel] of DIRECTORY_ESCAPES) await expectError(fixture().fs.directoryVersion(at(rel)), 'ACCESS_DENIED');
    });
  });
}
