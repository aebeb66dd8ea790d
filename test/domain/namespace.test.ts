import { DomainError } from '../../src/domain/errors.js';
import { Namespace, inNamespace, namespacePath } from '../../src/domain/namespace.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { makeRoot } from '../support/roots.js';
import { toolPolicy } from '../support/tools.js';

const paths = new PathPolicy([makeRoot('workspace', '/data/ws'), makeRoot('readonly', '/data/ro', ['view'])]);
const namespace = new Namespace(paths, new RootAccess(paths, toolPolicy()));

function locate(raw: string, cwd = '/workspace', tool: string | null = 'view') {
  const target = namespace.locate(tool, raw, cwd);
  return target.kind === 'roots' ? { kind: 'roots', display: target.display } : { root: target.path.root.name, segments: target.path.segments, display: target.display };
}

function failure(raw: string, cwd = '/workspace', tool: string | null = 'view'): DomainError {
  try {
    namespace.locate(tool, raw, cwd);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`expected ${raw} to fail`);
}

describe('Namespace.locate', () => {
  it('maps /<root>/<path> to the path inside that root', () => {
    expect(locate('/workspace/src/main.go')).toEqual({ root: 'workspace', segments: ['src', 'main.go'], display: '/workspace/src/main.go' });
  });

  it('treats / (and its spellings) as the list of roots', () => {
    for (const raw of ['/', '//', '/.', '/./']) expect(locate(raw)).toEqual({ kind: 'roots', display: '/' });
  });

  it('a root name alone is the root directory itself', () => {
    expect(locate('/readonly')).toEqual({ root: 'readonly', segments: [], display: '/readonly' });
  });

  it('resolves a relative path against the working directory (session cwd /workspace/project)', () => {
    expect(locate('src/main.go', '/workspace/project').display).toBe('/workspace/project/src/main.go');
    expect(locate('./a/../b.txt', '/workspace/project').display).toBe('/workspace/project/b.txt');
    expect(locate('', '/workspace/project').display).toBe('/workspace/project');
  });

  it("resolves '..' lexically inside a root", () => {
    expect(locate('../lib/x.ts', '/workspace/project/src').display).toBe('/workspace/project/lib/x.ts');
    expect(locate('/workspace/a/./../b').display).toBe('/workspace/b');
  });

  it("Reject path traversal: '..' may never leave a root (ACCESS_DENIED)", () => {
    for (const raw of ['..', '../../etc/passwd', '/workspace/..', '/workspace/../readonly/x']) {
      const error = failure(raw, '/workspace');
      expect(error.code).toBe('ACCESS_DENIED');
      expect(error.message).not.toContain('/data/');
    }
    expect(failure('/..').toClientText()).toBe('ACCESS_DENIED: path resolves outside the roots: /..');
    expect(failure('/etc/../workspace').toClientText()).toBe('ACCESS_DENIED: path resolves outside the roots: /etc/../workspace');
    expect(failure('../x').toClientText()).toBe('ACCESS_DENIED: path resolves outside root boundary: ../x (root: workspace)');
  });

  it('an absolute host path is just an unknown top-level name: NOT_FOUND, never a host lookup', () => {
    const error = failure('/data/ws/secret.txt');
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('/data/ws/secret.txt');
    expect(error.message).toContain('no root named data');
  });

  it('checks the allowlist of the root the path lands in', () => {
    const error = failure('/readonly/a.txt', '/workspace', 'str_replace');
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool str_replace not allowed on root readonly');
    expect(locate('/readonly/a.txt', '/workspace', 'view').root).toBe('readonly');
  });

  it('checks the allowlist of the root a relative path lands in through the cwd', () => {
    expect(failure('a.txt', '/readonly', 'create_file').code).toBe('TOOL_NOT_ALLOWED');
  });

  it('skips the allowlist for change_directory (tool null)', () => {
    expect(locate('/readonly', '/workspace', null).root).toBe('readonly');
  });

  it('refuses a null byte with INVALID_PATH before anything else', () => {
    expect(failure('/workspace/a\0b').toClientText()).toBe('INVALID_PATH: invalid path: path contains a null byte: /workspace/a\\0b');
    expect(failure('a\0b', '/nonexistent').code).toBe('INVALID_PATH');
  });

  it('takes percent-encoding and backslashes literally', () => {
    expect(locate('%2e%2e%2fetc').segments).toEqual(['%2e%2e%2fetc']);
    expect(locate('..\\..\\etc').segments).toEqual(['..\\..\\etc']);
  });

  it('keeps PathPolicy limits (over-long names are INVALID_PATH)', () => {
    expect(failure(`/workspace/${'x'.repeat(256)}`).code).toBe('INVALID_PATH');
  });
});

describe('namespacePath', () => {
  it('prefixes the root name', () => {
    const root = paths.root('workspace');
    expect(namespacePath({ root, segments: [] })).toBe('/workspace');
    expect(namespacePath({ root, segments: ['a', 'b.txt'] })).toBe('/workspace/a/b.txt');
  });
});

describe('inNamespace', () => {
  it('rewrites target errors to name the namespace path and keeps the log details', () => {
    const original = new DomainError('ACCESS_DENIED', 'path resolves outside root boundary: escape/x (root: workspace)', { resolvedPath: '/etc/x' });
    const translated = inNamespace(original, '/workspace/escape/x') as DomainError;
    expect(translated.toClientText()).toBe('ACCESS_DENIED: path resolves outside root boundary: /workspace/escape/x');
    expect(translated.logDetails.resolvedPath).toBe('/etc/x');
  });

  it('leaves other errors alone', () => {
    const original = new DomainError('PERMISSION_DENIED', 'permission denied: a (root: workspace)');
    expect(inNamespace(original, '/workspace/a')).toBe(original);
    const plain = new Error('boom');
    expect(inNamespace(plain, '/workspace/a')).toBe(plain);
  });
});
