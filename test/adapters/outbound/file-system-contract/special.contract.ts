import { type ContractContext, encode, REPLACE } from '../file-system.contract.js';

/** FIFOs (the model's 'other' entries): listed and stat'ed, never opened or read, and never blocking. */
export function describeSpecialFileReadContract({ fixture, at, expectError, statOf }: ContractContext): void {
  describe('special files (a FIFO)', () => {
    it("lists and stats a FIFO as 'other' with size 0", async () => {
      await fixture().seed.fifo('pipe');
      expect(await statOf('pipe')).toMatchObject({ name: 'pipe', kind: 'other', size: 0 });
      const listed = await fixture().fs.readDirectory(at(''));
      expect(listed.map((entry) => [entry.name, entry.kind])).toEqual([['pipe', 'other']]);
    });

    it('refuses to open a FIFO (NOT_A_FILE), also through an in-root link', async () => {
      await fixture().seed.fifo('pipe');
      await fixture().seed.symlink('to-pipe', 'pipe');
      await expectError(fixture().fs.openFile(at('pipe')), 'NOT_A_FILE');
      await expectError(fixture().fs.openFile(at('to-pipe')), 'NOT_A_FILE');
      expect((await statOf('pipe'))?.kind).toBe('other');
    });
  });
}

/** FIFOs met by writes: never overwritten or copied, removed as a file. */
export function describeSpecialFileWriteContract({ fixture, at, expectError, statOf }: ContractContext): void {
  describe('special files (a FIFO), written', () => {
    it('refuses to overwrite or copy a FIFO (NOT_A_FILE), and leaves it there', async () => {
      await fixture().seed.fifo('pipe');
      await expectError(fixture().fs.writeFile(at('pipe'), encode('x'), REPLACE), 'NOT_A_FILE');
      await expectError(fixture().fs.copyFile(at('pipe'), at('copy')), 'NOT_A_FILE');
      expect((await statOf('pipe'))?.kind).toBe('other');
      expect(fixture().inspect.exists('copy')).toBe(false);
    });

    it('refuses to copy a file onto a FIFO (NOT_A_FILE) and leaves the FIFO', async () => {
      await fixture().seed.fifo('pipe');
      await fixture().seed.file('a.txt', 'alpha');
      await expectError(fixture().fs.copyFile(at('a.txt'), at('pipe')), 'NOT_A_FILE');
      expect((await statOf('pipe'))?.kind).toBe('other');
    });

    it('removes a FIFO as a file', async () => {
      await fixture().seed.fifo('pipe');
      await fixture().fs.removeFile(at('pipe'));
      expect(fixture().inspect.exists('pipe')).toBe(false);
    });
  });
}
