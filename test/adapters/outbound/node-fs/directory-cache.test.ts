import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import { DomainError } from '../../../../src/domain/errors.js';
import type { RootPath } from '../../../../src/domain/roots.js';
import { makeRoot } from '../../../support/roots.js';

// Deep enough for the walker to keep the directory open between calls.
const DEEP = 'a/b/c/d/e/f/g/h/i/j';
const encode = (text: string) => new TextEncoder().encode(text);

/** Open fds of this process that name something below `dir`. */
function fdsBelow(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${dir}/`) ? [target] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The walker keeps recently verified deep directories open so that the next walk below one
 * starts there. Each test first warms that cache, then changes the tree behind the server's
 * back the way another process could: a kept directory must never be used once it is no
 * longer exactly where its path says.
 */
describe('NodeFileSystem: deep directories kept between calls', () => {
  let base: string;
  let host: string;
  let outside: string;
  let fs: NodeFileSystem;
  let at: (rel: string) => RootPath;
  const names = async (rel: string) => (await fs.readDirectory(at(rel))).map((entry) => entry.name).sort();

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'dir-cache-')));
    host = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(host, DEEP), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(host, DEEP, 'mine.txt'), 'mine');
    writeFileSync(join(outside, 'secret.txt'), 'outside secret');
    const root = makeRoot('workspace', host);
    at = (rel) => ({ root, segments: rel.split('/') });
    fs = new NodeFileSystem();
    expect(await names(DEEP)).toEqual(['mine.txt']);
  });

  afterEach(() => {
    execFileSync('rm', ['-rf', '--', base]);
  });

  it('a kept directory moved out of the root is not used: the walk finds what is at the path now', async () => {
    renameSync(join(host, DEEP), join(outside, 'moved'));
    mkdirSync(join(host, DEEP));
    writeFileSync(join(host, DEEP, 'replacement.txt'), 'new');
    expect(await names(DEEP)).toEqual(['replacement.txt']);
    await fs.writeFile(at(`${DEEP}/written.txt`), encode('x'), { mode: 'replace', createParents: false });
    expect(readdirSync(join(outside, 'moved'))).toEqual(['mine.txt']);
    expect(readdirSync(join(host, DEEP)).sort()).toEqual(['replacement.txt', 'written.txt']);
  });

  it('an ancestor swapped for a link to the outside is refused, and nothing outside changes', async () => {
    renameSync(join(host, 'a/b/c'), join(outside, 'c'));
    symlinkSync(join(outside, 'c'), join(host, 'a/b/c'));
    await expect(fs.readDirectory(at(DEEP))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(fs.writeFile(at(`${DEEP}/stolen.txt`), encode('x'), { mode: 'replace', createParents: true })).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await expect(fs.createDirectory(at(`${DEEP}/k`))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(readdirSync(join(outside, 'c/d/e/f/g/h/i/j'))).toEqual(['mine.txt']);
  });

  it('a kept directory deleted and made again is the new one; a renamed one is not followed to its new name', async () => {
    execFileSync('rm', ['-rf', '--', join(host, 'a/b/c/d/e/f/g/h/i')]);
    mkdirSync(join(host, DEEP), { recursive: true });
    expect(await names(DEEP)).toEqual([]);
    renameSync(join(host, 'a/b/c/d/e/f/g/h/i'), join(host, 'a/b/c/d/e/f/g/h/renamed'));
    await expect(fs.readDirectory(at(DEEP))).rejects.toBeInstanceOf(DomainError);
    await fs.createDirectory(at(`${DEEP}/k`));
    expect(readdirSync(join(host, 'a/b/c/d/e/f/g/h')).sort()).toEqual(['i', 'renamed']);
    expect(readdirSync(join(host, 'a/b/c/d/e/f/g/h/renamed/j'))).toEqual([]);
  });

  it('many concurrent deep walks share kept directories and give every fd back once idle', async () => {
    expect(fdsBelow(base)).toEqual([join(host, DEEP)]);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? fs.writeFile(at(`${DEEP}/k${i % 5}/f${i}.txt`), encode(String(i)), { mode: 'replace', createParents: true })
          : fs.readDirectory(at(DEEP)),
      ),
    );
    expect(readFileSync(join(host, DEEP, 'k0/f0.txt'), 'utf8')).toBe('0');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(fdsBelow(base)).toEqual([]);
  });
});
