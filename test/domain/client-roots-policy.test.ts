import { Namespace } from '../../src/domain/namespace.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import type { RootsSource } from '../../src/domain/ports/roots-source.port.js';
import type { Root } from '../../src/domain/roots.js';
import { ListRoots } from '../../src/domain/tools/list-roots.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { thrownDomainError } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';
import { toolPolicy } from '../support/tools.js';

/** A source the test replaces by hand, as the client adapter does on roots/list_changed. */
class SharedFolders implements RootsSource {
  constructor(public roots: readonly Root[] = []) {}

  current(): readonly Root[] {
    return this.roots;
  }
}

function world() {
  const source = new SharedFolders();
  const paths = new PathPolicy(source);
  const access = new RootAccess(paths, toolPolicy());
  return { source, paths, access, namespace: new Namespace(paths, access), listRoots: new ListRoots(paths) };
}

describe('PathPolicy over a roots source that changes (client folders)', () => {
  it('with no roots, list_roots is empty and every lookup is NO_ROOTS, the namespace included', async () => {
    const { paths, access, namespace, listRoots } = world();
    expect(await listRoots.execute()).toEqual({ roots: [] });
    for (const error of [
      thrownDomainError(() => paths.root('anything')),
      thrownDomainError(() => access.path('read_file', 'anything', 'a.txt')),
      thrownDomainError(() => namespace.locate('view', '/', '/')),
      thrownDomainError(() => namespace.locate('view', 'a.txt', '/')),
    ]) {
      expect(error.toClientText()).toBe('NO_ROOTS: the client shared no folders; share a folder in the client or start the server with DIR arguments');
    }
  });

  it('follows the set as it is replaced: new roots resolve, a root that went away is UNKNOWN_ROOT', async () => {
    const { source, paths, listRoots } = world();
    source.roots = [makeRoot('app', '/home/u/app'), makeRoot('docs', '/home/u/docs', ['read_file'])];
    expect((await listRoots.execute()).roots.map((root) => root.name)).toEqual(['app', 'docs']);
    expect(paths.resolve(paths.root('app'), 'src/a.ts').segments).toEqual(['src', 'a.ts']);
    source.roots = [makeRoot('docs', '/home/u/docs', ['read_file'])];
    expect(thrownDomainError(() => paths.root('app')).code).toBe('UNKNOWN_ROOT');
    expect(paths.root('docs').hostPath).toBe('/home/u/docs');
  });

  it('moves a working directory whose root went away to the first root', () => {
    const { source, namespace } = world();
    source.roots = [makeRoot('app', '/home/u/app'), makeRoot('docs', '/home/u/docs')];
    expect(namespace.locate('view', 'README.md', '/app/src')).toMatchObject({ display: '/app/src/README.md' });
    source.roots = [makeRoot('docs', '/home/u/docs')];
    expect(namespace.locate('view', 'README.md', '/app/src')).toMatchObject({ display: '/docs/README.md' });
  });
});
