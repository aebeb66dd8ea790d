import type { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { DomainError } from '../../../src/domain/errors.js';
import { Move, type MoveInput } from '../../../src/domain/tools/move.js';
import { domainError } from '../../support/domain.js';
import { accessTo, type RootSpec, transferTree, WORKSPACE_AND_BACKUP } from './transfer-harness.js';

let fs: InMemoryFileSystem;
let mover: Move;

const moveWith = (roots: RootSpec[]) => new Move(fs, accessTo(roots));

const move = (source_path: string, dest_path: string, roots: Partial<MoveInput> = {}) =>
  mover.execute({ source_root: 'workspace', source_path, dest_root: 'workspace', dest_path, ...roots });

beforeEach(() => {
  fs = transferTree();
  mover = moveWith(WORKSPACE_AND_BACKUP);
});

describe('Move', () => {
  it('E2E-045: renames within a root', async () => {
    fs.seedFile('/ws/old_name.txt', 'moving content\n');

    expect(await move('old_name.txt', 'new_name.txt')).toEqual({
      source: 'old_name.txt',
      destination: 'new_name.txt',
      cross_root: false,
    });
    expect(fs.exists('/ws/old_name.txt')).toBe(false);
    expect(fs.readText('/ws/new_name.txt')).toBe('moving content\n');
  });

  it('E2E-046: moves across roots on one file system with a rename', async () => {
    fs.seedFile('/ws/file.txt', 'travelling');

    expect(await move('file.txt', 'in/file.txt', { dest_root: 'backup' })).toEqual({
      source: 'file.txt',
      destination: 'in/file.txt',
      cross_root: true,
    });
    expect(fs.readText('/backup/in/file.txt')).toBe('travelling');
    expect(fs.exists('/ws/file.txt')).toBe(false);
  });

  it('E2E-047: a missing source is NOT_FOUND and nothing changes', async () => {
    const error = await domainError(move('missing.txt', 'moved-missing.txt'));
    expect(error.toClientText()).toBe('NOT_FOUND: source not found: missing.txt (root: workspace)');
    expect(fs.list('/ws')).toEqual([]);
  });

  it('checks both allowlists for move before looking at any path', async () => {
    mover = moveWith([
      { name: 'workspace', host: '/ws', tools: ['*'] },
      { name: 'backup', host: '/backup', tools: ['copy'] },
    ]);
    fs.seedFile('/ws/a.txt', 'a');

    const error = await domainError(move('a.txt', 'a.txt', { dest_root: 'backup' }));
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool move not allowed on root backup');
    expect(fs.readText('/ws/a.txt')).toBe('a');
  });

  it('refuses to move a root itself', async () => {
    fs.seedFile('/ws/a.txt', 'a');

    for (const path of ['.', '/', 'sub/..']) {
      const error = await domainError(move(path, 'elsewhere', { dest_root: 'backup' }));
      expect(error.toClientText()).toBe('INVALID_ARGUMENT: cannot move root directory (root: workspace)');
    }
  });

  it('refuses to move a directory into its own subtree', async () => {
    fs.seedFile('/ws/dir/sub/a.txt', 'a');

    const error = await domainError(move('dir', 'dir/sub/deeper'));
    expect(error.toClientText()).toBe(
      'INVALID_ARGUMENT: cannot move a directory into itself or its own subtree: dir -> dir/sub/deeper (root: workspace)',
    );
    expect((await domainError(move('dir', 'dir/sub'))).code).toBe('INVALID_ARGUMENT');
    expect(fs.readText('/ws/dir/sub/a.txt')).toBe('a');
  });

  it('moves INTO an existing directory and overwrites an existing file', async () => {
    fs.seedFile('/ws/a.txt', 'a');
    fs.seedFile('/ws/b.txt', 'new b');
    fs.seedFile('/ws/old.txt', 'old');
    fs.seedDirectory('/ws/box');

    expect((await move('a.txt', 'box')).destination).toBe('box/a.txt');
    expect(fs.readText('/ws/box/a.txt')).toBe('a');
    expect((await move('b.txt', 'old.txt')).destination).toBe('old.txt');
    expect(fs.readText('/ws/old.txt')).toBe('new b');
    expect(fs.list('/ws')).toEqual(['box', 'old.txt']);
  });

  it('refuses to replace an existing directory, or a file with a directory', async () => {
    fs.seedFile('/ws/dir/a.txt', 'a');
    fs.seedDirectory('/ws/box/dir');
    fs.seedFile('/ws/plain.txt', 'p');

    expect((await domainError(move('dir', 'box'))).toClientText()).toBe(
      'ALREADY_EXISTS: destination is an existing directory: box/dir (root: workspace)',
    );
    expect((await domainError(move('dir', 'plain.txt'))).code).toBe('NOT_A_DIRECTORY');
    expect(fs.readText('/ws/dir/a.txt')).toBe('a');
  });

  it('moves a link as the link itself, never its target', async () => {
    fs.seedFile('/ws/target.txt', 't');
    fs.seedSymlink('/ws/link', '/ws/target.txt');

    await move('link', 'moved-link');
    expect(fs.kindOf('/ws/moved-link')).toBe('symlink');
    expect(fs.linkTextOf('/ws/moved-link')).toBe('/ws/target.txt');
    expect(fs.readText('/ws/target.txt')).toBe('t');
  });

  describe('across file systems (copy, then delete)', () => {
    beforeEach(() => fs.seedDevice('/backup', 7));

    it('moves a file', async () => {
      fs.seedFile('/ws/file.txt', 'payload');

      expect(await move('file.txt', 'file.txt', { dest_root: 'backup' })).toEqual({
        source: 'file.txt',
        destination: 'file.txt',
        cross_root: true,
      });
      expect(fs.readText('/backup/file.txt')).toBe('payload');
      expect(fs.exists('/ws/file.txt')).toBe(false);
    });

    it('moves a directory tree', async () => {
      fs.seedFile('/ws/dir/a.txt', 'a');
      fs.seedFile('/ws/dir/sub/b.txt', 'b');
      fs.seedDirectory('/ws/dir/empty');

      await move('dir', 'archive/dir', { dest_root: 'backup' });
      expect(fs.list('/backup/archive/dir')).toEqual(['a.txt', 'empty', 'sub']);
      expect(fs.readText('/backup/archive/dir/sub/b.txt')).toBe('b');
      expect(fs.exists('/ws/dir')).toBe(false);
    });

    it('keeps the folder modes of the tree, never wider', async () => {
      fs.seedDirectory('/ws/dir', { permissions: 0o700 });
      fs.seedDirectory('/ws/dir/shared', { permissions: 0o750 });
      fs.seedFile('/ws/dir/shared/a.txt', 'a');

      await move('dir', 'dir', { dest_root: 'backup' });
      expect([fs.permissionsOf('/backup/dir'), fs.permissionsOf('/backup/dir/shared')]).toEqual([0o700, 0o750]);
    });

    it('a copy failing partway removes what was copied and leaves the source intact', async () => {
      fs.seedFile('/ws/dir/a.txt', 'a');
      fs.seedFile('/ws/dir/b.txt', 'b');
      fs.seedFile('/ws/dir/c.txt', 'c');
      fs.failNextWrite('/backup/dir/b.txt');

      const error = await domainError(move('dir', 'dir', { dest_root: 'backup' }));
      expect(error.code).toBe('IO_ERROR');
      expect(fs.exists('/backup/dir')).toBe(false);
      expect(fs.list('/ws/dir')).toEqual(['a.txt', 'b.txt', 'c.txt']);
    });

    it('a failed file copy leaves an existing destination file and the source untouched', async () => {
      fs.seedFile('/ws/file.txt', 'new');
      fs.seedFile('/backup/file.txt', 'old');
      fs.failNextWrite('/backup/file.txt');

      expect((await domainError(move('file.txt', 'file.txt', { dest_root: 'backup' }))).code).toBe('IO_ERROR');
      expect(fs.readText('/backup/file.txt')).toBe('old');
      expect(fs.readText('/ws/file.txt')).toBe('new');
    });

    it('says so when the copy arrived but the source could not be removed', async () => {
      fs.seedFile('/ws/file.txt', 'payload');
      const stuck: InMemoryFileSystem = Object.create(fs);
      stuck.removeFile = async () => {
        throw new DomainError('PERMISSION_DENIED', 'permission denied: file.txt (root: workspace)');
      };

      const error = await domainError(
        new Move(stuck, accessTo(WORKSPACE_AND_BACKUP)).execute({ source_root: 'workspace', source_path: 'file.txt', dest_root: 'backup', dest_path: 'file.txt' }),
      );
      expect(error.toClientText()).toBe(
        'PERMISSION_DENIED: copied to file.txt (root: backup) but could not remove the source: permission denied: file.txt (root: workspace)',
      );
      expect(fs.readText('/backup/file.txt')).toBe('payload');
    });

    it('refuses a tree holding symlinks, which a copy could not carry, before writing anything', async () => {
      fs.seedFile('/ws/dir/a.txt', 'a');
      fs.seedSymlink('/ws/dir/link', 'a.txt');

      const error = await domainError(move('dir', 'dir', { dest_root: 'backup' }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('dir/link');
      expect(fs.list('/backup')).toEqual([]);
      expect(fs.list('/ws/dir')).toEqual(['a.txt', 'link']);
    });

    it('refuses a symlink as the source', async () => {
      fs.seedFile('/ws/a.txt', 'a');
      fs.seedSymlink('/ws/link', 'a.txt');

      expect((await domainError(move('link', 'link', { dest_root: 'backup' }))).code).toBe('INVALID_ARGUMENT');
      expect(fs.kindOf('/ws/link')).toBe('symlink');
      expect(fs.list('/backup')).toEqual([]);
    });
  });
});
