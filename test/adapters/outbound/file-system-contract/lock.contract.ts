import { type ContractContext, decode, encode, REPLACE } from '../file-system.contract.js';

/** lockFile and WriteOptions.expected: the two halves of "no lost update" (issue 9). */
export function describeLockContract({ fixture, at, expectError }: ContractContext): void {
  const versionOf = async (rel: string) => {
    const file = await fixture().fs.openFile(at(rel));
    try {
      return file.version;
    } finally {
      await file.close();
    }
  };
  const read = async (rel: string) => {
    const file = await fixture().fs.openFile(at(rel));
    try {
      return decode(await file.read(0, file.stat.size));
    } finally {
      await file.close();
    }
  };

  describe('versions and expected', () => {
    it('a file opened twice without a change has one version; a write gives it another', async () => {
      await fixture().seed.file('a.txt', 'one');
      const first = await versionOf('a.txt');
      expect(first).toEqual(expect.any(String));
      expect(await versionOf('a.txt')).toBe(first);
      await fixture().fs.writeFile(at('a.txt'), encode('two'), REPLACE);
      expect(await versionOf('a.txt')).not.toBe(first);
    });

    it('a replace with the version that is on disk succeeds', async () => {
      await fixture().seed.file('a.txt', 'one');
      const version = await versionOf('a.txt');
      await fixture().fs.writeFile(at('a.txt'), encode('two'), { ...REPLACE, expected: version });
      expect(fixture().inspect.text('a.txt')).toBe('two');
    });

    it('a replace over a file that changed since it was read is CONFLICT and changes nothing', async () => {
      await fixture().seed.file('a.txt', 'one');
      const version = await versionOf('a.txt');
      await fixture().fs.writeFile(at('a.txt'), encode('someone else'), REPLACE);
      const error = await expectError(fixture().fs.writeFile(at('a.txt'), encode('mine'), { ...REPLACE, expected: version }), 'CONFLICT');
      expect(error.message).toBe('file changed while patching: a.txt (root: workspace); read it again and retry');
      expect(fixture().inspect.text('a.txt')).toBe('someone else');
      expect(fixture().inspect.exists('a.txt')).toBe(true);
    });

    it('a replace expecting a file that was removed meanwhile is CONFLICT and creates nothing', async () => {
      await fixture().seed.file('a.txt', 'one');
      const version = await versionOf('a.txt');
      await fixture().fs.removeFile(at('a.txt'));
      await expectError(fixture().fs.writeFile(at('a.txt'), encode('mine'), { ...REPLACE, expected: version }), 'CONFLICT');
      expect(fixture().inspect.exists('a.txt')).toBe(false);
    });
  });

  describe('removeFile with expected', () => {
    it('removes the version that is there', async () => {
      await fixture().seed.file('a.txt', 'one');
      await fixture().fs.removeFile(at('a.txt'), { expected: await versionOf('a.txt') });
      expect(fixture().inspect.exists('a.txt')).toBe(false);
    });

    it('a file that changed since it was read is CONFLICT and stays', async () => {
      await fixture().seed.file('a.txt', 'one');
      const version = await versionOf('a.txt');
      await fixture().fs.writeFile(at('a.txt'), encode('someone else'), REPLACE);
      const error = await expectError(fixture().fs.removeFile(at('a.txt'), { expected: version }), 'CONFLICT');
      expect(error.message).toBe('file changed before its removal: a.txt (root: workspace); read it again and retry');
      expect(fixture().inspect.text('a.txt')).toBe('someone else');
    });
  });

  describe('beforeCommit (the change journal makes its record durable meanwhile)', () => {
    const modes = [
      ['replace', 'a.txt', 'old'],
      ['create_exclusive', 'new.txt', undefined],
      ['append', 'a.txt', 'old'],
      ['append', 'fresh.txt', undefined],
    ] as const;

    it.each(modes)('%s (%s): awaited once, before anything is visible', async (mode, rel, before) => {
      if (before !== undefined) await fixture().seed.file(rel, before);
      const seen: (string | undefined)[] = [];
      await fixture().fs.writeFile(at(rel), encode('new'), {
        mode,
        createParents: false,
        beforeCommit: async () => {
          seen.push(fixture().inspect.exists(rel) ? fixture().inspect.text(rel) : undefined);
        },
      });
      expect(seen).toEqual([before]);
      expect(fixture().inspect.text(rel)).toBe(mode === 'append' && before !== undefined ? `${before}new` : 'new');
    });

    it.each(modes)('%s (%s): a rejection cancels the write, which changes nothing', async (mode, rel, before) => {
      if (before !== undefined) await fixture().seed.file(rel, before);
      const refused = fixture().fs.writeFile(at(rel), encode('new'), {
        mode,
        createParents: false,
        beforeCommit: () => Promise.reject(new Error('journal full')),
      });
      await expect(refused).rejects.toThrow('journal full');
      expect(fixture().inspect.exists(rel)).toBe(before !== undefined);
      if (before !== undefined) expect(fixture().inspect.text(rel)).toBe(before);
      expect((await fixture().fs.readDirectory(at(''))).map((entry) => entry.name).filter((name) => name.startsWith('.mcp-fs-'))).toEqual([]);
    });
  });

  describe('beforeCommit naming the version (the journal reads the before-image while the temp file is written)', () => {
    it('replace: the version the hook names must still be there; a writer in between is CONFLICT, and its content stays', async () => {
      await fixture().seed.file('a.txt', 'old');
      const version = await versionOf('a.txt');
      const refused = fixture().fs.writeFile(at('a.txt'), encode('new'), {
        ...REPLACE,
        beforeCommit: async () => {
          await fixture().seed.file('a.txt', 'someone else');
          return { expected: version };
        },
      });
      await expectError(refused, 'CONFLICT');
      expect(fixture().inspect.text('a.txt')).toBe('someone else');
      expect((await fixture().fs.readDirectory(at(''))).map((entry) => entry.name).filter((name) => name.startsWith('.mcp-fs-'))).toEqual([]);
    });

    it('replace: the version still there, the write goes ahead', async () => {
      await fixture().seed.file('a.txt', 'old');
      const version = await versionOf('a.txt');
      await fixture().fs.writeFile(at('a.txt'), encode('new'), { ...REPLACE, beforeCommit: async () => ({ expected: version }) });
      expect(fixture().inspect.text('a.txt')).toBe('new');
    });

    it("replace: the caller's own expected wins over the hook's, and the hook still runs", async () => {
      await fixture().seed.file('a.txt', 'old');
      const version = await versionOf('a.txt');
      let ran = false;
      await fixture().fs.writeFile(at('a.txt'), encode('new'), {
        ...REPLACE,
        expected: version,
        beforeCommit: async () => {
          ran = true;
          return { expected: 'not-a-version' };
        },
      });
      expect(ran).toBe(true);
      expect(fixture().inspect.text('a.txt')).toBe('new');
    });
  });

  describe('lockFile', () => {
    it('serialises read-modify-writes of one file: 20 concurrent increments all count', async () => {
      await fixture().seed.file('n.txt', '0');
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const lock = await fixture().fs.lockFile(at('n.txt'));
          try {
            const file = await fixture().fs.openFile(at('n.txt'));
            const version = file.version;
            const value = Number(decode(await file.read(0, file.stat.size)));
            await file.close();
            await fixture().fs.writeFile(at('n.txt'), encode(String(value + 1)), { ...REPLACE, expected: version });
          } finally {
            await lock.release();
          }
        }),
      );
      expect(await read('n.txt')).toBe('20');
    });

    it('two spellings of one file (through a linked directory) share one lock', async () => {
      await fixture().seed.file('dir/f.txt', 'x');
      await fixture().seed.symlink('alias', 'dir');
      const first = await fixture().fs.lockFile(at('dir/f.txt'));
      let second = false;
      const waiting = fixture().fs.lockFile(at('alias/f.txt')).then((lock) => {
        second = true;
        return lock;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(second).toBe(false);
      await first.release();
      await (await waiting).release();
      expect(second).toBe(true);
    });

    it('leaves no entry in the directory once released, and a missing parent is NOT_FOUND', async () => {
      await fixture().seed.file('dir/f.txt', 'x');
      const lock = await fixture().fs.lockFile(at('dir/f.txt'));
      expect((await fixture().fs.readDirectory(at('dir'))).map((entry) => entry.name)).toEqual(['f.txt']);
      await lock.release();
      expect((await fixture().fs.readDirectory(at('dir'))).map((entry) => entry.name)).toEqual(['f.txt']);
      await expectError(fixture().fs.lockFile(at('nowhere/f.txt')), 'NOT_FOUND');
    });
  });
}
