import type { CopyBatchEntry } from '../../../../src/domain/ports/file-system.port.js';
import type { ContractContext } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, seedEscapes } from './escapes.js';

/** copyBatch: a tree copy's files and folders of one folder, placed together. */
export function describeCopyBatchContract({ fixture, at, expectError, statOf }: ContractContext): void {
  const seed = () => fixture().seed;
  const inspect = () => fixture().inspect;
  const file = (from: string, to: string): CopyBatchEntry => ({ kind: 'file', from: at(from), to: at(to) });
  const folder = (to: string): CopyBatchEntry => ({ kind: 'directory', to: at(to) });

  describe('copyBatch', () => {
    it('copies files (content, permissions, an overwrite) and makes folders, in order, answering for each', async () => {
      await seed().file('src/a.txt', 'alpha', 0o600);
      await seed().file('src/b.txt', 'beta');
      await seed().file('dst/b.txt', 'old and longer');
      await seed().dir('dst/there');
      const outcome = await fixture().fs.copyBatch([file('src/a.txt', 'dst/a.txt'), folder('dst/sub'), file('src/b.txt', 'dst/b.txt'), folder('dst/there')]);
      expect(outcome).toEqual({
        placed: [
          { size: 5, created: true },
          { size: 0, created: true },
          { size: 4, created: false },
          { size: 0, created: false },
        ],
      });
      expect(inspect().text('dst/a.txt')).toBe('alpha');
      expect(inspect().text('dst/b.txt')).toBe('beta');
      expect((await statOf('dst/a.txt'))?.permissions).toBe(0o600);
      expect(await statOf('dst/sub')).toMatchObject({ kind: 'directory' });
    });

    it('makes a folder with the exact mode its entry asks for, and leaves an existing folder its own', async () => {
      await seed().dir('dst/there');
      const before = (await statOf('dst/there'))?.permissions;
      const entry = (to: string): CopyBatchEntry => ({ kind: 'directory', to: at(to), permissions: 0o700 });
      const outcome = await fixture().fs.copyBatch([entry('dst/private'), entry('dst/there')]);
      expect(outcome.placed.map((placed) => placed.created)).toEqual([true, false]);
      expect((await statOf('dst/private'))?.permissions).toBe(0o700);
      expect((await statOf('dst/there'))?.permissions).toBe(before);
    });

    it('awaits beforeCommit after the files are read and before anything is placed; a rejection leaves everything as it was', async () => {
      await seed().file('src/a.txt', 'alpha');
      await seed().file('dst/a.txt', 'kept');
      const seen: boolean[] = [];
      const refusal = new Error('the journal could not record it');
      const batch = fixture().fs.copyBatch([folder('dst/sub'), file('src/a.txt', 'dst/a.txt')], {
        beforeCommit: async () => {
          seen.push(inspect().exists('dst/sub'), inspect().text('dst/a.txt') === 'kept');
          throw refusal;
        },
      });
      await expect(batch).rejects.toBe(refusal);
      expect(seen).toEqual([false, true]);
      expect(inspect().exists('dst/sub')).toBe(false);
      expect(inspect().text('dst/a.txt')).toBe('kept');
    });

    it('rejects before placing anything when a source cannot be read', async () => {
      await seed().file('src/a.txt', 'alpha');
      await seed().dir('dst');
      let hooked = 0;
      const beforeCommit = async () => {
        hooked += 1;
      };
      await expectError(fixture().fs.copyBatch([file('src/a.txt', 'dst/a.txt'), file('src/missing.txt', 'dst/m.txt')], { beforeCommit }), 'NOT_FOUND');
      expect(hooked).toBe(0);
      expect(inspect().exists('dst/a.txt')).toBe(false);
    });

    it('stops at a folder a file is in the way of: what came before stays, the failure is told', async () => {
      await seed().file('src/a.txt', 'alpha');
      await seed().file('dst/blocked', 'a file');
      const outcome = await fixture().fs.copyBatch([file('src/a.txt', 'dst/a.txt'), folder('dst/blocked'), folder('dst/after')]);
      expect(outcome.placed).toEqual([{ size: 5, created: true }]);
      expect(outcome.failure).toMatchObject({ code: 'NOT_A_DIRECTORY' });
      expect(inspect().text('dst/a.txt')).toBe('alpha');
      expect(inspect().exists('dst/after')).toBe(false);
    });

    it.each(DIRECTORY_ESCAPES)('refuses to copy into %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await seed().file('a.txt', 'mine');
      const before = inspect().outsideEntries();
      await expectError(fixture().fs.copyBatch([file('a.txt', `${rel}/stolen.txt`)]), 'ACCESS_DENIED');
      expect(inspect().outsideEntries()).toEqual(before);
    });
  });
}
