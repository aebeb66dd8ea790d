import type { IndexStore } from '../../../src/domain/ports/index-store.port.js';
import type { Root } from '../../../src/domain/roots.js';

/** One store and what a case needs of its world: roots whose folders exist, and a way to re-point one. */
export interface IndexStoreWorld {
  readonly store: IndexStore;
  readonly roots: readonly [Root, Root];
  /** Another folder now stands at the root's path (the old one moved away). */
  repoint(root: Root): Promise<void>;
  cleanup(): Promise<void>;
}

/** One behaviour for every index store: the Node one and the in-memory one run the same cases. */
export function indexStoreContract(make: () => Promise<IndexStoreWorld>): void {
  let world: IndexStoreWorld;
  beforeEach(async () => {
    world = await make();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('gives back the bytes saved, per root name, and nothing for a root never saved', async () => {
    const [a, b] = world.roots;
    expect(await world.store.load(a.name)).toBeUndefined();
    await world.store.save(a.name, Uint8Array.from([1, 2, 3]));
    expect([...((await world.store.load(a.name)) ?? [])]).toEqual([1, 2, 3]);
    expect(await world.store.load(b.name)).toBeUndefined();
  });

  it('replaces the bytes whole on a second save, and forgets them on remove', async () => {
    const [a] = world.roots;
    await world.store.save(a.name, new Uint8Array(1000).fill(7));
    await world.store.save(a.name, Uint8Array.from([9]));
    expect([...((await world.store.load(a.name)) ?? [])]).toEqual([9]);
    await world.store.remove(a.name);
    await world.store.remove(a.name);
    expect(await world.store.load(a.name)).toBeUndefined();
  });

  it('keeps names apart that a file name could not hold as they are', async () => {
    const names = ['a/b', 'a_b', '..', 'ünïcode', 'x'.repeat(300)];
    for (const [at, name] of names.entries()) await world.store.save(name, Uint8Array.from([at]));
    for (const [at, name] of names.entries()) expect([...((await world.store.load(name)) ?? [])]).toEqual([at]);
  });

  it('identifies a root by its name and its folder: stable, distinct per root, new once the folder is replaced', async () => {
    const [a, b] = world.roots;
    const first = await world.store.identify(a);
    expect(first).toEqual(await world.store.identify(a));
    expect(first?.name).toBe(a.name);
    const other = await world.store.identify(b);
    expect([other?.device, other?.inode]).not.toEqual([first?.device, first?.inode]);
    await world.repoint(a);
    const after = await world.store.identify(a);
    expect(after?.name).toBe(a.name);
    expect([after?.device, after?.inode]).not.toEqual([first?.device, first?.inode]);
  });
}
