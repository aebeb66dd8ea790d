import type { WriteMode } from '../../../../src/domain/ports/file-system.port.js';
import { type ContractContext, encode } from '../file-system.contract.js';

/** Linux PATH_MAX counts the terminating NUL: a host path holds at most 4095 bytes. */
const MAX_HOST_PATH = 4095;
const MODES: readonly WriteMode[] = ['replace', 'append', 'create_exclusive'];

/**
 * Nothing may be created whose host path (root host path + '/' + physical path) passes
 * PATH_MAX: the kernel could no longer name it back to us, so it could not be verified,
 * read or removed. The rule applies to the physical path, so a short path through a link
 * is judged by where it lands.
 */
export function describeHostPathContract({ fixture, at, expectError, statOf }: ContractContext): void {
  /** A directory path whose host path is exactly `bytes` long (plain ASCII names). */
  const directoryOfHostLength = (bytes: number): string => {
    let remaining = bytes - fixture().root.hostPath.length;
    const segments: string[] = [];
    for (let index = 0; remaining > 0; index += 1) {
      // Each segment costs its '/' too; never leave a remainder too short for a name.
      const length = remaining - 1 > 250 ? Math.min(200, remaining - 1 - 50) : remaining - 1;
      segments.push(String(index % 10).repeat(length));
      remaining -= length + 1;
    }
    return segments.join('/');
  };

  describe('the host PATH_MAX', () => {
    // `base` + '/' + 9 bytes is exactly the limit; a 10-byte name is one byte over.
    const FITS = '123456789';
    const OVER = '1234567890';
    let base: string;

    beforeEach(async () => {
      base = directoryOfHostLength(MAX_HOST_PATH - 10);
      await fixture().fs.createDirectory(at(base));
      await fixture().seed.file('a.txt', 'a');
    });

    it('creates directories and files up to exactly the limit, and reads them back', async () => {
      expect(await fixture().fs.createDirectory(at(`${base}/${FITS}`))).toEqual({ created: true });
      expect(await fixture().fs.writeFile(at(`${base}/x.txt`), encode('x'), { mode: 'create_exclusive', createParents: false })).toEqual({
        created: true,
        size: 1,
      });
      expect((await fixture().fs.readDirectory(at(base))).map((entry) => entry.name).sort()).toEqual([FITS, 'x.txt']);
      expect(await statOf(`${base}/${FITS}`)).toMatchObject({ kind: 'directory' });
    });

    it('INVALID_PATH for createDirectory, writeFile, copyFile and rename one byte over; nothing is created', async () => {
      const over = `${base}/${OVER}`;
      await expectError(fixture().fs.createDirectory(at(over)), 'INVALID_PATH');
      await expectError(fixture().fs.createDirectory(at(`${over}/deeper`)), 'INVALID_PATH');
      for (const mode of MODES) {
        for (const createParents of [false, true]) {
          const error = await expectError(fixture().fs.writeFile(at(over), encode('x'), { mode, createParents }), 'INVALID_PATH');
          expect(error.message).toContain('path too long for the host file system');
        }
      }
      await expectError(fixture().fs.copyFile(at('a.txt'), at(over)), 'INVALID_PATH');
      await expectError(fixture().fs.rename(at('a.txt'), at(over)), 'INVALID_PATH');
      expect(await fixture().fs.readDirectory(at(base))).toEqual([]);
      expect(fixture().inspect.text('a.txt')).toBe('a');
    });

    it('judges the physical path: a short path through an in-root link is refused by where it lands', async () => {
      await fixture().seed.symlink('short', base);
      await expectError(fixture().fs.createDirectory(at(`short/${OVER}`)), 'INVALID_PATH');
      await expectError(fixture().fs.writeFile(at(`short/${OVER}`), encode('x'), { mode: 'replace', createParents: true }), 'INVALID_PATH');
      await expectError(fixture().fs.copyFile(at('a.txt'), at(`short/${OVER}`)), 'INVALID_PATH');
      expect(await fixture().fs.createDirectory(at(`short/${FITS}`))).toEqual({ created: true });
      expect((await fixture().fs.readDirectory(at(base))).map((entry) => entry.name)).toEqual([FITS]);
    });
  });
}
