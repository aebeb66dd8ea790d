import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArchiveFileSystem } from '../../../src/adapters/outbound/archive-file-system.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { makeRoot } from '../../support/roots.js';
import { tarArchive, type TarMember } from '../../support/tar-writer.js';

let base: string;
const opened: ArchiveFileSystem[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'archive-fs-')));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((fs) => fs.close()));
  await rm(base, { recursive: true, force: true });
});

async function mount(members: readonly TarMember[], name = 'release.tar') {
  const archive = join(base, name);
  await writeFile(archive, tarArchive(members));
  return mountFile(archive);
}

function mountFile(archive: string) {
  const fs = new ArchiveFileSystem(archive);
  opened.push(fs);
  const root = makeRoot('rel', archive);
  const at = (rel: string): RootPath => ({ root, segments: rel === '' ? [] : rel.split('/') });
  const names = async (rel = '') => (await fs.readDirectory(at(rel))).map((entry) => entry.name).sort();
  const text = async (rel: string) => {
    const file = await fs.openFile(at(rel));
    try {
      return new TextDecoder().decode(await file.read(0, 1 << 20));
    } finally {
      await file.close();
    }
  };
  return { fs, root, at, names, text };
}

async function failure(action: Promise<unknown>): Promise<DomainError> {
  const error = await action.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(DomainError);
  // Security: a client never sees where the archive lies on the host.
  expect((error as DomainError).message).not.toContain(base);
  return error as DomainError;
}

describe('ArchiveFileSystem: names that try to leave the archive', () => {
  it("leaves out members named with '..' or an absolute path, and says so to the log", async () => {
    const { fs, at, names } = await mount([
      { name: 'ok.txt', type: 'file', content: 'fine' },
      { name: '../escape.txt', type: 'file', content: 'x' },
      { name: 'a/../../escape2.txt', type: 'file', content: 'x' },
      { name: '/etc/passwd', type: 'file', content: 'x' },
      { name: '/abs-dir/', type: 'directory' },
    ]);
    expect(await names()).toEqual(['ok.txt']);
    expect(await fs.stat(at('etc/passwd'))).toBeNull();
    expect(await fs.stat(at('escape.txt'))).toBeNull();
    expect(await fs.refusedMembers(at(''))).toEqual([
      '../escape.txt: absolute or climbing name',
      'a/../../escape2.txt: absolute or climbing name',
      '/etc/passwd: absolute or climbing name',
      '/abs-dir/: absolute or climbing name',
    ]);
  });

  it('keeps the last of duplicate members, as tar -x leaves them, and merges a directory met twice', async () => {
    const { text, names } = await mount([
      { name: 'd/', type: 'directory' },
      { name: 'd/a.txt', type: 'file', content: 'first' },
      { name: 'd/', type: 'directory', mode: 0o700 },
      { name: 'd/a.txt', type: 'file', content: 'second, longer' },
      { name: 'x', type: 'file', content: 'file first' },
      { name: 'x', type: 'symlink', linkName: 'd/a.txt' },
    ]);
    expect(await names('d')).toEqual(['a.txt']);
    expect(await text('d/a.txt')).toBe('second, longer');
    expect(await text('x')).toBe('second, longer');
  });

  it('never indexes a member through an earlier link (link, then a file below it), and refuses the path outside', async () => {
    const { fs, at } = await mount([
      { name: 'evil', type: 'symlink', linkName: '/etc' },
      { name: 'evil/passwd', type: 'file', content: 'planted' },
      { name: 'up', type: 'symlink', linkName: '../..' },
      { name: 'up/x.txt', type: 'file', content: 'planted' },
    ]);
    expect((await failure(fs.stat(at('evil/passwd')))).code).toBe('ACCESS_DENIED');
    expect((await failure(fs.openFile(at('up/x.txt')))).code).toBe('ACCESS_DENIED');
    expect((await fs.stat(at('up')))?.link?.resolution).toBe('outside');
    expect(await fs.refusedMembers(at(''))).toEqual(['evil/passwd: below a member that is not a directory', 'up/x.txt: below a member that is not a directory']);
  });

  it('shares bytes for a hard link to an earlier regular member, and leaves out any other hard link', async () => {
    const { fs, at, names, text } = await mount([
      { name: 'a.txt', type: 'file', content: 'alpha' },
      { name: 'link-a', type: 'hardlink', linkName: 'a.txt' },
      { name: 'to-etc', type: 'hardlink', linkName: '/etc/passwd' },
      { name: 'to-parent', type: 'hardlink', linkName: '../outside.txt' },
      { name: 'soft', type: 'symlink', linkName: 'a.txt' },
      { name: 'to-soft', type: 'hardlink', linkName: 'soft' },
      { name: 'to-later', type: 'hardlink', linkName: 'later.txt' },
      { name: 'later.txt', type: 'file', content: 'later' },
    ]);
    expect(await names()).toEqual(['a.txt', 'later.txt', 'link-a', 'soft']);
    expect(await text('link-a')).toBe('alpha');
    expect(await fs.stat(at('to-etc'))).toBeNull();
    expect((await fs.refusedMembers(at(''))).length).toBe(4);
  });
});

describe('ArchiveFileSystem: reads', () => {
  it('gives each folder one version for as long as the archive is mounted (a completion may keep its listing); a file or a missing path is refused', async () => {
    const { fs, at } = await mount([
      { name: 'src/a.txt', type: 'file', content: 'a' },
      { name: 'docs/b.txt', type: 'file', content: 'b' },
    ]);
    const src = await fs.directoryVersion(at('src'));
    expect(src).toEqual(expect.any(String));
    expect(await fs.directoryVersion(at('src'))).toBe(src);
    expect(await fs.directoryVersion(at('docs'))).not.toBe(src);
    expect((await failure(fs.directoryVersion(at('src/a.txt')))).code).toBe('NOT_A_DIRECTORY');
    expect((await failure(fs.directoryVersion(at('missing')))).code).toBe('NOT_FOUND');
  });

  it("reads a member's own bytes only, whatever range is asked", async () => {
    const { fs, at } = await mount([
      { name: 'a.txt', type: 'file', content: 'abc' },
      { name: 'b.txt', type: 'file', content: 'NEXT MEMBER' },
    ]);
    const file = await fs.openFile(at('a.txt'));
    expect(new TextDecoder().decode(await file.read(0, 4096))).toBe('abc');
    expect(new TextDecoder().decode(await file.read(1, 4096))).toBe('bc');
    expect((await file.read(3, 10)).length).toBe(0);
    await file.close();
  });

  it('reads archives made by tar itself, plain and gzipped, long names included', async () => {
    const tree = join(base, 'tree');
    const longDir = 'd'.repeat(60);
    mkdirSync(join(tree, 'src', longDir), { recursive: true });
    writeFileSync(join(tree, 'src', longDir, `${'f'.repeat(60)}.txt`), 'long name');
    writeFileSync(join(tree, 'README.md'), '# hello\n');
    execFileSync('tar', ['-cf', join(base, 'made.tar'), '-C', tree, '.']);
    execFileSync('tar', ['-czf', join(base, 'made.tar.gz'), '--format=pax', '-C', tree, '.']);
    for (const archive of ['made.tar', 'made.tar.gz']) {
      const { names, text } = mountFile(join(base, archive));
      expect(await names()).toEqual(['README.md', 'src']);
      expect(await text('README.md')).toBe('# hello\n');
      expect(await text(`src/${longDir}/${'f'.repeat(60)}.txt`)).toBe('long name');
    }
  });

  it('answers IO_ERROR naming the root, not the host path, for a file that is not a tar archive', async () => {
    const archive = join(base, 'bad.tar');
    await writeFile(archive, 'x'.repeat(2048));
    const { fs, at } = mountFile(archive);
    const error = await failure(fs.readDirectory(at('')));
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).toBe('cannot read the archive (root: rel)');
  });
});

describe('ArchiveFileSystem: writes', () => {
  it('answers every write with a read-only PERMISSION_DENIED naming the root and the path, and changes nothing', async () => {
    const { fs: archive, at, text } = await mount([{ name: 'a.txt', type: 'file', content: 'alpha' }]);
    const fs: FileSystemPort = archive;
    const attempts: [Promise<unknown>, string][] = [
      [fs.writeFile(at('a.txt'), new Uint8Array(1), { mode: 'replace', createParents: false }), 'a.txt'],
      [fs.createDirectory(at('new')), 'new'],
      [fs.setDirectoryPermissions(at(''), 0o777), '.'],
      [fs.removeFile(at('a.txt')), 'a.txt'],
      [fs.removeDirectory(at('new')), 'new'],
      [fs.rename(at('a.txt'), at('b.txt')), 'b.txt'],
      [fs.copyFile(at('a.txt'), at('b.txt')), 'b.txt'],
      [fs.copyBatch([{ kind: 'directory', to: at('c') }]), 'c'],
      [fs.lockFile(at('a.txt')), 'a.txt'],
    ];
    for (const [attempt, path] of attempts) {
      const error = await failure(attempt);
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(error.message).toBe(`read-only root (an archive): cannot change ${path} (root: rel)`);
    }
    expect(await text('a.txt')).toBe('alpha');
  });
});
