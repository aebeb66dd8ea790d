import type { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Copy, type CopyInput } from '../../../src/domain/tools/copy.js';
import { domainError } from '../../support/domain.js';
import { accessTo, type RootSpec, transferTree, WORKSPACE_AND_BACKUP } from './transfer-harness.js';

let fs: InMemoryFileSystem;
let copier: Copy;

const copyWith = (roots: RootSpec[]) => new Copy(fs, accessTo(roots));

const copy = (source_path: string, dest_path: string, roots: Partial<CopyInput> = {}) =>
  copier.execute({ source_root: 'workspace', source_path, dest_root: 'workspace', dest_path, ...roots });

beforeEach(() => {
  fs = transferTree();
  copier = copyWith(WORKSPACE_AND_BACKUP);
});

describe('Copy', () => {
  it('E2E-041: copies a file within a root', async () => {
    fs.seedFile('/ws/original.txt', 'original content\n', { permissions: 0o600 });

    expect(await copy('original.txt', 'duplicate.txt')).toEqual({
      source: 'original.txt',
      destination: 'duplicate.txt',
      is_directory: false,
      size: 17,
      files_copied: 1,
      skipped: [],
    });
    expect(fs.readText('/ws/duplicate.txt')).toBe('original content\n');
    expect(fs.readText('/ws/original.txt')).toBe('original content\n');
    expect(fs.permissionsOf('/ws/duplicate.txt')).toBe(0o600);
  });

  it('E2E-042: copies a file across roots, creating missing parents', async () => {
    fs.seedFile('/ws/data/report.csv', 'a,b\n');

    const result = await copy('data/report.csv', 'archive/2026/report.csv', { dest_root: 'backup' });
    expect(result).toMatchObject({ source: 'data/report.csv', destination: 'archive/2026/report.csv', size: 4 });
    expect(fs.readText('/backup/archive/2026/report.csv')).toBe('a,b\n');
    expect(fs.readText('/ws/data/report.csv')).toBe('a,b\n');
  });

  it('E2E-043: copies a directory recursively, empty directories included', async () => {
    fs.seedFile('/ws/project/README.md', '# p\n');
    fs.seedFile('/ws/project/src/main.go', 'package main\n');
    fs.seedFile('/ws/project/src/pkg/util.go', 'package pkg\n');
    fs.seedDirectory('/ws/project/empty');

    const result = await copy('project', 'project-backup');
    expect(result).toEqual({
      source: 'project',
      destination: 'project-backup',
      is_directory: true,
      size: 4 + 13 + 12,
      files_copied: 3,
      skipped: [],
    });
    expect(fs.list('/ws/project-backup')).toEqual(['README.md', 'empty', 'src']);
    expect(fs.readText('/ws/project-backup/src/pkg/util.go')).toBe('package pkg\n');
    expect(fs.kindOf('/ws/project-backup/empty')).toBe('directory');
  });

  it('gives each copied folder its source mode from the start, and a folder its owner cannot write 0700 until it is filled', async () => {
    fs.seedDirectory('/ws/tree', { permissions: 0o750 });
    fs.seedDirectory('/ws/tree/private', { permissions: 0o700 });
    fs.seedFile('/ws/tree/private/key', 'k', { permissions: 0o600 });
    fs.seedDirectory('/ws/tree/frozen', { permissions: 0o555 });
    fs.seedFile('/ws/tree/frozen/a.txt', 'a');
    fs.seedDirectory('/ws/tree/open', { permissions: 0o777 });
    const folders = ['/ws/copy', '/ws/copy/private', '/ws/copy/frozen', '/ws/copy/open'];
    const seenWhileFilling = new Map<string, Set<number>>();
    const copyBatch = fs.copyBatch.bind(fs);
    fs.copyBatch = async (entries, options) => {
      for (const folder of folders) {
        const mode = fs.permissionsOf(folder);
        if (mode !== undefined) seenWhileFilling.set(folder, (seenWhileFilling.get(folder) ?? new Set()).add(mode));
      }
      return copyBatch(entries, options);
    };

    await copy('tree', 'copy');
    expect(Object.fromEntries([...seenWhileFilling].map(([folder, modes]) => [folder, [...modes]]))).toEqual({
      '/ws/copy': [0o750],
      '/ws/copy/private': [0o700],
      '/ws/copy/frozen': [0o700],
      '/ws/copy/open': [0o777],
    });
    expect(folders.map((path) => fs.permissionsOf(path))).toEqual([0o750, 0o700, 0o555, 0o777]);
    expect(fs.readText('/ws/copy/frozen/a.txt')).toBe('a');
  });

  it('E2E-044: a missing source is NOT_FOUND and nothing is written', async () => {
    const error = await domainError(copy('missing.txt', 'copy-of-missing.txt'));
    expect(error.toClientText()).toBe('NOT_FOUND: source not found: missing.txt (root: workspace)');
    expect(fs.exists('/ws/copy-of-missing.txt')).toBe(false);
  });

  it('E2E-067: a source root without copy is refused before any path is looked at', async () => {
    copier = copyWith([
      { name: 'restricted', host: '/ws', tools: ['list_folder'] },
      { name: 'backup', host: '/backup', tools: ['*'] },
    ]);
    fs.seedFile('/ws/data.txt', 'x');

    const error = await domainError(copy('does-not-matter/../../..', 'data.txt', { source_root: 'restricted', dest_root: 'backup' }));
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool copy not allowed on root restricted');
    expect(fs.list('/backup')).toEqual([]);
  });

  it('E2E-068: a destination root without copy is refused and nothing is written', async () => {
    copier = copyWith([
      { name: 'workspace', host: '/ws', tools: ['*'] },
      { name: 'readonly', host: '/backup', tools: ['list_folder', 'read_file'] },
    ]);
    fs.seedFile('/ws/to-copy.txt', 'payload');

    const error = await domainError(copy('to-copy.txt', 'to-copy.txt', { dest_root: 'readonly' }));
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool copy not allowed on root readonly');
    expect(fs.list('/backup')).toEqual([]);
  });

  it('copies INTO an existing destination directory, and overwrites an existing file', async () => {
    fs.seedFile('/ws/a.txt', 'new');
    fs.seedDirectory('/ws/into');
    fs.seedFile('/ws/old.txt', 'old');

    expect((await copy('a.txt', 'into')).destination).toBe('into/a.txt');
    expect(fs.readText('/ws/into/a.txt')).toBe('new');
    expect((await copy('a.txt', 'old.txt')).destination).toBe('old.txt');
    expect(fs.readText('/ws/old.txt')).toBe('new');
  });

  it('copies a directory into an existing directory, merging over what is there', async () => {
    fs.seedFile('/ws/conf/a.yml', 'new a');
    fs.seedFile('/backup/conf/a.yml', 'old a');
    fs.seedFile('/backup/conf/keep.yml', 'kept');

    const result = await copy('conf', '.', { dest_root: 'backup' });
    expect(result.destination).toBe('conf');
    expect(fs.readText('/backup/conf/a.yml')).toBe('new a');
    expect(fs.readText('/backup/conf/keep.yml')).toBe('kept');
  });

  it('copies a whole root into another root under the root name', async () => {
    fs.seedFile('/ws/a.txt', 'a');

    expect((await copy('.', '.', { dest_root: 'backup' })).destination).toBe('workspace');
    expect(fs.readText('/backup/workspace/a.txt')).toBe('a');
  });

  it('OQ-004: symlinks inside a copied tree are neither followed nor recreated, and are listed', async () => {
    fs.seedFile('/ws/tree/file.txt', 'f');
    fs.seedSymlink('/ws/tree/to-file', 'file.txt');
    fs.seedSymlink('/ws/tree/escape', '/etc');
    fs.seedFile('/etc/passwd', 'root');
    fs.seedSymlink('/ws/tree/sub/loop', '..');

    const result = await copy('tree', 'tree-copy');
    expect(result).toMatchObject({
      files_copied: 1,
      size: 1,
      skipped: [
        { path: 'tree/escape', reason: 'symlink' },
        { path: 'tree/sub/loop', reason: 'symlink' },
        { path: 'tree/to-file', reason: 'symlink' },
      ],
    });
    expect(fs.list('/ws/tree-copy')).toEqual(['file.txt', 'sub']);
    expect(fs.list('/ws/tree-copy/sub')).toEqual([]);
  });

  it('follows a top-level source that is an in-root link, but refuses one leaving the root', async () => {
    fs.seedFile('/ws/real.txt', 'real');
    fs.seedSymlink('/ws/alias.txt', 'real.txt');
    fs.seedSymlink('/ws/escape.txt', '/etc/passwd');
    fs.seedFile('/etc/passwd', 'root');

    expect(await copy('alias.txt', 'copied.txt')).toMatchObject({ size: 4, is_directory: false });
    expect(fs.kindOf('/ws/copied.txt')).toBe('file');
    expect(fs.readText('/ws/copied.txt')).toBe('real');

    expect((await domainError(copy('escape.txt', 'stolen.txt'))).code).toBe('ACCESS_DENIED');
    expect(fs.exists('/ws/stolen.txt')).toBe(false);
  });

  it('refuses a destination above the root', async () => {
    fs.seedFile('/ws/a.txt', 'a');
    expect((await domainError(copy('a.txt', '../../tmp/a.txt'))).code).toBe('ACCESS_DENIED');
  });

  it('refuses copying a directory into itself or its own subtree, root included', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');
    fs.seedDirectory('/ws/dir/sub');

    const intoSubtree = await domainError(copy('dir', 'dir/sub'));
    expect(intoSubtree.toClientText()).toBe(
      'INVALID_ARGUMENT: cannot copy a directory into itself or its own subtree: dir -> dir/sub/dir (root: workspace)',
    );
    expect((await domainError(copy('dir', 'dir/new/place'))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(copy('.', 'snapshot'))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(copy('dir/a.txt', 'dir/a.txt'))).message).toMatch(/^source and destination are the same/);
    expect(fs.list('/ws/dir')).toEqual(['a.txt', 'sub']);
    expect(fs.exists('/ws/snapshot')).toBe(false);
  });

  it('judges the subtree by where links lead: a destination or source through an in-root link is still refused', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');
    fs.seedDirectory('/ws/dir/sub');
    fs.seedSymlink('/ws/alias', 'dir');
    fs.seedSymlink('/ws/hop', 'alias/sub');
    fs.seedSymlink('/ws/dir-link', '/ws/dir');

    expect((await domainError(copy('dir', 'alias/inner'))).toClientText()).toBe(
      'INVALID_ARGUMENT: cannot copy a directory into itself or its own subtree: dir -> alias/inner (root: workspace)',
    );
    expect((await domainError(copy('dir', 'alias'))).message).toContain('dir -> alias/dir');
    expect((await domainError(copy('dir', 'hop/deeper/x'))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(copy('dir-link', 'dir/sub/copy'))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(copy('alias', 'dir'))).message).toMatch(/^cannot copy a directory into itself or its own subtree: alias -> dir\/alias/);
    expect(fs.list('/ws/dir')).toEqual(['a.txt', 'sub']);
    expect(fs.list('/ws/dir/sub')).toEqual([]);
  });

  it('a destination through an in-root link elsewhere is fine', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');
    fs.seedDirectory('/ws/other');
    fs.seedSymlink('/ws/to-other', 'other');

    expect(await copy('dir', 'to-other/inner')).toMatchObject({ destination: 'to-other/inner', files_copied: 1 });
    expect(fs.readText('/ws/other/inner/a.txt')).toBe('a');
  });

  it('INVALID_PATH before anything is written when an entry of the copy would pass PATH_MAX', async () => {
    const deep = Array.from({ length: 15 }, () => 'd'.repeat(250)).join('/');
    fs.seedFile(`/ws/${deep}/f.txt`, 'f');

    // The source fits (about 3,800 bytes); three more 250-byte levels above it at the destination do not.
    const error = await domainError(copy('d'.repeat(250), Array.from({ length: 3 }, () => 'e'.repeat(250)).join('/')));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain('path too long for the host file system');
    expect(fs.exists(`/ws/${'e'.repeat(250)}`)).toBe(false);
  });

  it('a copy into a sibling whose name starts like the source is allowed', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');

    expect((await copy('dir', 'dir-2')).destination).toBe('dir-2');
    expect(fs.readText('/ws/dir-2/a.txt')).toBe('a');
  });

  it('refuses a directory over an existing file and a file over an existing directory', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');
    fs.seedFile('/ws/plain.txt', 'p');
    fs.seedFile('/ws/b.txt', 'b');
    fs.seedDirectory('/ws/box/b.txt');

    expect((await domainError(copy('dir', 'plain.txt'))).toClientText()).toBe(
      'NOT_A_DIRECTORY: cannot copy a directory over an existing file: plain.txt (root: workspace)',
    );
    expect((await domainError(copy('b.txt', 'box'))).code).toBe('IS_A_DIRECTORY');
    expect(fs.readText('/ws/plain.txt')).toBe('p');
  });
});
