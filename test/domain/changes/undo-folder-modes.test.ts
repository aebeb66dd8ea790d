import { THE_START } from '../../../src/domain/changes/change-id.js';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { DomainError } from '../../../src/domain/errors.js';
import { displayPath, type RootPath } from '../../../src/domain/roots.js';
import type { WriteOptions, WriteResult } from '../../../src/domain/ports/file-system.port.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

// Issue 27: an undo never widens permissions. A folder it recreates gets its recorded mode back,
// and is its owner's alone (0700) until then; where the mode cannot be set, the outcome says so.

/** The tree below the journal, logging the undo's writes in order (mkdir with its mode, write, chmod). */
class LoggingTree extends InMemoryFileSystem {
  readonly log: string[] = [];
  /** What setDirectoryPermissions does to the bits asked for (a kernel may drop set-group-ID), or throws. */
  chmod: (permissions: number) => number = (permissions) => permissions;

  override async createDirectory(path: RootPath, options?: { readonly permissions?: number }): Promise<{ created: boolean }> {
    this.log.push(`mkdir ${displayPath(path)} ${options?.permissions?.toString(8) ?? 'default'}`);
    return super.createDirectory(path, options);
  }

  override async writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    this.log.push(`write ${displayPath(path)}`);
    return super.writeFile(path, data, options);
  }

  override async setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    this.log.push(`chmod ${displayPath(path)} ${permissions.toString(8)}`);
    return super.setDirectoryPermissions(path, this.chmod(permissions));
  }
}

/** /ws/private 0750 holding secret/ 0700 (with a read-only folder 0555 inside) and a file in each. */
function privateTree() {
  const world = journalWorld({}, new LoggingTree());
  world.tree.seedDirectory('/ws/private', { permissions: 0o750 });
  world.tree.seedDirectory('/ws/private/secret', { permissions: 0o700 });
  world.tree.seedDirectory('/ws/private/secret/sealed', { permissions: 0o555 });
  world.tree.seedFile('/ws/private/a.txt', 'a', { permissions: 0o640 });
  world.tree.seedFile('/ws/private/secret/key', 'k', { permissions: 0o600 });
  world.tree.seedFile('/ws/private/secret/sealed/s.txt', 's', { permissions: 0o444 });
  return world;
}

const modes = (world: ReturnType<typeof privateTree>) =>
  ['/ws/private', '/ws/private/secret', '/ws/private/secret/sealed', '/ws/private/a.txt', '/ws/private/secret/key', '/ws/private/secret/sealed/s.txt'].map((path) =>
    world.tree.permissionsOf(path)?.toString(8),
  );

describe('UndoChanges: a recreated folder gets its mode back, never more open meanwhile', () => {
  it('remove_folder of a 0750/0700/0555 tree, undone: every folder and file has its mode again', async () => {
    const world = privateTree();
    await world.removeFolder.execute({ root: W, path: 'private' });
    expect(world.tree.exists('/ws/private')).toBe(false);
    const { results } = await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results).toEqual([expect.objectContaining({ op: 'rmdir', outcome: 'restored' })]);
    expect(results[0].reason).toBeUndefined();
    expect(modes(world)).toEqual(['750', '700', '555', '640', '600', '444']);
    expect(world.tree.readText('/ws/private/secret/sealed/s.txt')).toBe('s');
  });

  it('makes each folder 0700, puts the files back, then sets the recorded modes deepest first (a 0555 folder would refuse its own files)', async () => {
    const world = privateTree();
    await world.removeFolder.execute({ root: W, path: 'private' });
    world.tree.log.length = 0;
    await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(world.tree.log).toEqual([
      'mkdir private 700',
      'write private/a.txt',
      'mkdir private/secret 700',
      'write private/secret/key',
      'mkdir private/secret/sealed 700',
      'write private/secret/sealed/s.txt',
      // secret/ is 0700 already: nothing to set.
      'chmod private/secret/sealed 555',
      'chmod private 750',
    ]);
  });

  it('a mode the file system refuses or trims is reported in the outcome, and the folder is never left more open', async () => {
    const world = privateTree();
    world.tree.seedDirectory('/ws/private/shared', { permissions: 0o2770 });
    await world.removeFolder.execute({ root: W, path: 'private' });
    // A file system may refuse a chmod; the kernel drops set-group-ID for a group the process is not in.
    world.tree.chmod = (permissions) => {
      if (permissions === 0o555) throw new DomainError('PERMISSION_DENIED', 'permission denied: private/secret/sealed');
      return permissions & ~0o2000;
    };
    const { results } = await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results).toEqual([
      expect.objectContaining({
        op: 'rmdir',
        outcome: 'restored',
        reason:
          'the mode of folders private/shared (02770 before, 0770 now), private/secret/sealed (0555 before, 0700 now) could not be restored; none was left more open than it was',
      }),
    ]);
    expect(modes(world)).toEqual(['750', '700', '700', '640', '600', '444']);
    expect(world.tree.permissionsOf('/ws/private/shared')).toBe(0o770);
  });

  it('a failure that is not the file system refusing (a bug) is not swallowed: the undo fails and stays undoable', async () => {
    const world = privateTree();
    await world.removeFolder.execute({ root: W, path: 'private' });
    world.tree.chmod = () => {
      throw new TypeError('a bug');
    };
    await expect(world.undoChanges.execute({ since_id: THE_START }, 's1')).rejects.toThrow('a bug');
    expect(modes(world).slice(0, 3)).toEqual(['700', '700', '700']);
    expect((await world.journal.list({})).find((change) => change.op === 'rmdir')?.undoneBy).toBeUndefined();
  });

  it('a folder moved back (within a device, or across one: copied, then its removal undone) keeps or regains its modes', async () => {
    const world = privateTree();
    world.tree.seedDirectory('/ws/mnt');
    world.tree.seedDevice('/ws/mnt', 2);
    await world.move.execute({ source_root: W, source_path: 'private', dest_root: W, dest_path: 'moved' });
    await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(modes(world)).toEqual(['750', '700', '555', '640', '600', '444']);

    const crossing = privateTree();
    crossing.tree.seedDirectory('/ws/mnt');
    crossing.tree.seedDevice('/ws/mnt', 2);
    await crossing.move.execute({ source_root: W, source_path: 'private', dest_root: W, dest_path: 'mnt/private' });
    expect(crossing.tree.exists('/ws/private')).toBe(false);
    const { results } = await crossing.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results.every((result) => result.outcome === 'restored' && result.reason === undefined)).toBe(true);
    expect(modes(crossing)).toEqual(['750', '700', '555', '640', '600', '444']);
    expect(crossing.tree.list('/ws/mnt')).toEqual([]);
  });

  it('a copy over a tree, undone: its files come back, and its folders keep their modes', async () => {
    const world = privateTree();
    world.tree.seedFile('/ws/from/private/a.txt', 'new a');
    world.tree.seedFile('/ws/from/private/secret/key', 'new k');
    world.tree.seedFile('/ws/from/private/added/b.txt', 'b');
    await world.copy.execute({ source_root: W, source_path: 'from/private', dest_root: W, dest_path: '.' });
    expect(world.tree.readText('/ws/private/secret/key')).toBe('new k');
    const { results } = await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results.every((result) => result.outcome === 'restored')).toBe(true);
    expect(world.tree.readText('/ws/private/secret/key')).toBe('k');
    expect(modes(world)).toEqual(['750', '700', '555', '640', '600', '444']);
    expect(world.tree.list('/ws/private')).toEqual(['a.txt', 'secret']);
    expect(world.tree.list('/ws/private/secret')).toEqual(['key', 'sealed']);
  });
});
