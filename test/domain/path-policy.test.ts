import { DomainError } from '../../src/domain/errors.js';
import { fitsHostPath, hostPathInside, PathPolicy } from '../../src/domain/path-policy.js';
import { makeRoot } from '../support/roots.js';

const workspace = makeRoot('workspace', '/data/ws');
const policy = new PathPolicy([workspace, makeRoot('logs', '/var/log/app', ['read_file'])]);

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a DomainError';
  }
  return undefined;
}

describe('PathPolicy.root', () => {
  it('finds a configured root by name', () => {
    expect(policy.root('logs').name).toBe('logs');
  });

  it('E2E-072: rejects an unknown root by name', () => {
    expect(() => policy.root('nonexistent')).toThrow('unknown root: nonexistent');
  });
});

describe('PathPolicy.resolve', () => {
  it.each([
    ['', []],
    ['.', []],
    ['/', []],
    ['src/main.go', ['src', 'main.go']],
    ['/src//main.go/', ['src', 'main.go']],
    ['a/../b', ['b']],
    ['./a/./b/..', ['a']],
  ])('normalises %j lexically', (raw, segments) => {
    expect(policy.resolve(workspace, raw).segments).toEqual(segments);
  });

  it('E2E-063: refuses .. above the root', () => {
    expect(codeOf(() => policy.resolve(workspace, '../../etc/passwd'))).toBe('ACCESS_DENIED');
    expect(codeOf(() => policy.resolve(workspace, 'a/../../x'))).toBe('ACCESS_DENIED');
  });

  it('E2E-070: refuses a null byte', () => {
    expect(codeOf(() => policy.resolve(workspace, 'file\0.txt'))).toBe('INVALID_PATH');
  });

  it('E2E-071: takes percent-encoding literally', () => {
    expect(policy.resolve(workspace, '%2e%2e%2fetc%2fpasswd').segments).toEqual(['%2e%2e%2fetc%2fpasswd']);
  });

  it('keeps backslashes and look-alike dots as literal names', () => {
    expect(policy.resolve(workspace, '..\\..\\etc').segments).toEqual(['..\\..\\etc']);
    expect(policy.resolve(workspace, '\u2024\u2024/x').segments).toEqual(['\u2024\u2024', 'x']);
  });

  it('refuses over-long paths and names with INVALID_PATH', () => {
    expect(codeOf(() => policy.resolve(workspace, 'a/'.repeat(3000)))).toBe('INVALID_PATH');
    expect(codeOf(() => policy.resolve(workspace, 'x'.repeat(256)))).toBe('INVALID_PATH');
  });

  it('refuses a path whose host path would pass PATH_MAX, though the path itself is under 4096 bytes', () => {
    // '/data/ws/' is 9 bytes: 4086 more reach PATH_MAX (4095 bytes + NUL) exactly.
    const fits = `${'d'.repeat(200)}/`.repeat(20) + 'f'.repeat(66);
    expect(policy.resolve(workspace, fits).segments).toHaveLength(21);
    const error = (() => {
      try {
        policy.resolve(workspace, `${fits}x`);
      } catch (thrown) {
        return thrown as DomainError;
      }
    })();
    expect(error?.code).toBe('INVALID_PATH');
    expect(error?.message).toMatch(/^invalid path: path too long for the host file system: d{80}\.\.\. \(root: workspace\)$/);
  });

  it('fitsHostPath counts bytes, not characters, and the root itself always fits', () => {
    expect(fitsHostPath({ root: workspace, segments: [] })).toBe(true);
    expect(fitsHostPath({ root: makeRoot('top', '/'), segments: ['x'.repeat(255)] })).toBe(true);
    const segments = Array.from({ length: 17 }, () => 'é'.repeat(120));
    expect(fitsHostPath({ root: workspace, segments })).toBe(false);
    expect(fitsHostPath({ root: workspace, segments: segments.slice(0, 16) })).toBe(true);
  });

  it('never puts a host path in an error message', () => {
    try {
      policy.resolve(workspace, '../escape');
    } catch (error) {
      expect((error as Error).message).not.toContain('/data/ws');
      expect((error as Error).message).toContain('(root: workspace)');
    }
  });
});

describe('PathPolicy.resolveLinkTarget', () => {
  const dir = { root: workspace, segments: ['a', 'b'] };

  it('joins a relative target to the link directory', () => {
    expect(policy.resolveLinkTarget(dir, '../c/d.txt')?.segments).toEqual(['a', 'c', 'd.txt']);
  });

  it('admits an absolute target inside the root', () => {
    expect(policy.resolveLinkTarget(dir, '/data/ws/x/y')?.segments).toEqual(['x', 'y']);
  });

  it('refuses relative targets that climb out', () => {
    expect(policy.resolveLinkTarget(dir, '../../../etc')).toBeNull();
  });

  it('refuses absolute targets outside, including the prefix look-alike sibling', () => {
    expect(policy.resolveLinkTarget(dir, '/etc/passwd')).toBeNull();
    expect(policy.resolveLinkTarget(dir, '/data/ws-evil/secret')).toBeNull();
    expect(policy.resolveLinkTarget(dir, '/data/ws/../ws-evil')).toBeNull();
  });
});

describe('hostPathInside', () => {
  it('compares by component, not by string prefix', () => {
    expect(hostPathInside('/data/ws', '/data/ws')).toBe('');
    expect(hostPathInside('/data/ws', '/data/ws/a')).toBe('a');
    expect(hostPathInside('/data/ws', '/data/ws-evil')).toBeNull();
    expect(hostPathInside('/data/ws', '/data/w')).toBeNull();
    expect(hostPathInside('/', '/etc')).toBe('etc');
  });
});
