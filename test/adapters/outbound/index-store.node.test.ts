import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIndexStore } from '../../../src/adapters/outbound/node-index-store.js';
import { makeRoot } from '../../support/roots.js';
import { indexStoreContract } from './index-store.contract.js';

async function scratch(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-index-store-')));
}

describe('index store contract: NodeIndexStore', () => {
  indexStoreContract(async () => {
    const dir = await scratch();
    await Promise.all(['a', 'b'].map((name) => mkdir(join(dir, name))));
    return {
      store: new NodeIndexStore(join(dir, 'state', 'index')),
      roots: [makeRoot('a', join(dir, 'a')), makeRoot('b', join(dir, 'b'))],
      repoint: async (root) => {
        await rename(root.hostPath, `${root.hostPath}-moved`);
        await mkdir(root.hostPath);
      },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });
});

describe('NodeIndexStore on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await scratch();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes its directory 0700 and each file 0600, leaving no temp file behind', async () => {
    const store = new NodeIndexStore(join(dir, 'index'));
    await store.save('docs', Uint8Array.from([1]));
    await store.save('docs', Uint8Array.from([2]));
    expect((await lstat(join(dir, 'index'))).mode & 0o777).toBe(0o700);
    const names = await readdir(join(dir, 'index'));
    expect(names).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.idx$/)]);
    expect((await lstat(join(dir, 'index', names[0]!))).mode & 0o777).toBe(0o600);
  });

  it('refuses a directory that is a link or writable by others, and a stored file that is a link', async () => {
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'linked'));
    await expect(new NodeIndexStore(join(dir, 'linked')).save('docs', Uint8Array.from([1]))).rejects.toThrow(/symbolic link/);
    await expect(new NodeIndexStore(join(dir, 'linked')).load('docs')).rejects.toThrow(/symbolic link/);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual([]);
    await mkdir(join(dir, 'open'));
    await chmod(join(dir, 'open'), 0o777);
    await expect(new NodeIndexStore(join(dir, 'open')).load('docs')).rejects.toThrow(/writable by others/);
    const store = new NodeIndexStore(join(dir, 'index'));
    await store.save('docs', Uint8Array.from([1]));
    const [name] = await readdir(join(dir, 'index'));
    await writeFile(join(dir, 'secret'), 'not an index');
    await rm(join(dir, 'index', name!));
    await symlink(join(dir, 'secret'), join(dir, 'index', name!));
    await expect(store.load('docs')).rejects.toThrow();
  });

  it('identifies nothing for a root whose folder is gone', async () => {
    expect(await new NodeIndexStore(join(dir, 'index')).identify(makeRoot('gone', join(dir, 'gone')))).toBeUndefined();
  });
});
