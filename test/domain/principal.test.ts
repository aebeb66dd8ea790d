import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { Namespace } from '../../src/domain/namespace.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import type { Principal, PrincipalContext } from '../../src/domain/principal.js';
import { UNRESTRICTED_PRINCIPAL } from '../../src/domain/principal.js';
import { ListRoots } from '../../src/domain/tools/list-roots.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { WriteFile } from '../../src/domain/tools/write-file.js';
import { TEST_SETTINGS, thrownDomainError, domainError } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';
import { TOOLS, toolPolicy } from '../support/tools.js';

/** A principal context a test switches by hand (the server switches it per tool call). */
class SwitchablePrincipal implements PrincipalContext {
  principal: Principal = UNRESTRICTED_PRINCIPAL;
  current(): Principal {
    return this.principal;
  }
}

const caller = new SwitchablePrincipal();
const paths = new PathPolicy(
  [makeRoot('workspace', '/data/ws'), makeRoot('docs', '/data/docs', ['read_file', 'write_file', 'view']), makeRoot('secrets', '/data/secrets')],
  { principals: caller, tools: TOOLS },
);
const access = new RootAccess(paths, toolPolicy());

afterEach(() => {
  caller.principal = UNRESTRICTED_PRINCIPAL;
});

describe('a principal limited to some roots', () => {
  beforeEach(() => {
    caller.principal = { name: 'ci-agent', roots: ['workspace', 'docs'], readOnly: false };
  });

  it('sees only its roots in list_roots', async () => {
    expect((await new ListRoots(paths).execute()).roots.map((root) => root.name)).toEqual(['workspace', 'docs']);
  });

  it('gets UNKNOWN_ROOT for another root, exactly as for a root never configured', () => {
    const error = thrownDomainError(() => access.path('read_file', 'secrets', 'a.txt'));
    expect(error.code).toBe('UNKNOWN_ROOT');
    expect(error.toClientText()).toBe(thrownDomainError(() => access.path('read_file', 'nowhere', 'a.txt')).toClientText().replace('nowhere', 'secrets'));
  });

  it('does not see the other root as a folder of the editor namespace', () => {
    const namespace = new Namespace(paths, access);
    expect(namespace.roots.map((root) => root.name)).toEqual(['workspace', 'docs']);
    const error = thrownDomainError(() => namespace.locate('view', '/secrets/a.txt', '/workspace'));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.toClientText()).not.toContain('/secrets,');
    expect(error.toClientText()).toContain('/workspace, /docs');
  });

  it('leaves the unrestricted view untouched for other callers', async () => {
    caller.principal = UNRESTRICTED_PRINCIPAL;
    expect((await new ListRoots(paths).execute()).roots.map((root) => root.name)).toEqual(['workspace', 'docs', 'secrets']);
    expect(access.path('read_file', 'secrets', 'a.txt').root.name).toBe('secrets');
  });
});

describe('a read-only principal', () => {
  beforeEach(() => {
    caller.principal = { name: 'reader', readOnly: true };
  });

  it('gets TOOL_NOT_ALLOWED for a writing tool, on a root that allows it to others', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedDirectory('/data/ws');
    const error = await domainError(new WriteFile(access, fs, TEST_SETTINGS).execute({ root: 'workspace', path: 'a.txt', content: 'x' }));
    expect(error.code).toBe('TOOL_NOT_ALLOWED');
    expect(fs.exists('/data/ws/a.txt')).toBe(false);
  });

  it('may still use the reading tools', () => {
    expect(access.path('read_file', 'workspace', 'a.txt').segments).toEqual(['a.txt']);
    expect(access.path('view', 'docs', 'a.txt').segments).toEqual(['a.txt']);
  });

  it('sees its narrowed allowlists in list_roots', async () => {
    const { roots } = await new ListRoots(paths).execute();
    const docs = roots.find((root) => root.name === 'docs');
    expect(docs?.allowed_tools).toEqual(['read_file', 'view']);
    const workspace = roots.find((root) => root.name === 'workspace');
    expect(workspace?.allowed_tools).toContain('grep');
    for (const writer of ['write_file', 'remove_file', 'move', 'copy', 'str_replace', 'create_file', 'file_write', 'patch_file']) {
      expect(workspace?.allowed_tools).not.toContain(writer);
    }
  });
});
