import { octalMode, symbolicMode } from '../../../src/domain/tools/file-modes.js';
import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('PermissionsFile', () => {
  it('E2E-039: a 0755 file', async () => {
    const { fs, permissionsFile } = fileToolsWorld();
    fs.seedFile('/ws/script.sh', '#!/bin/sh\n', { permissions: 0o755 });
    expect(await permissionsFile.execute({ root: 'workspace', path: 'script.sh' })).toEqual({
      path: 'script.sh',
      owner: 'agent',
      group: 'agent',
      mode: '0755',
      mode_string: '-rwxr-xr-x',
      uid: 1000,
      gid: 1000,
    });
  });

  it('E2E-040: a directory gets the d flag', async () => {
    const { fs, permissionsFile } = fileToolsWorld();
    fs.seedDirectory('/ws/subdir', { permissions: 0o755 });
    expect(await permissionsFile.execute({ root: 'workspace', path: 'subdir' })).toMatchObject({ mode: '0755', mode_string: 'drwxr-xr-x' });
  });

  it('reports a symlink itself, not its target', async () => {
    const { fs, permissionsFile } = fileToolsWorld();
    fs.seedFile('/ws/private.txt', 'x', { permissions: 0o600 });
    fs.seedSymlink('/ws/link', 'private.txt');
    expect(await permissionsFile.execute({ root: 'workspace', path: 'link' })).toMatchObject({ mode: '0777', mode_string: 'lrwxrwxrwx' });
  });

  it('names a missing file', async () => {
    const { permissionsFile } = fileToolsWorld();
    expect((await domainError(permissionsFile.execute({ root: 'workspace', path: 'nope' }))).toClientText()).toBe(
      'NOT_FOUND: file not found: nope (root: workspace)',
    );
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { permissionsFile } = fileToolsWorld();
    expect((await domainError(permissionsFile.execute({ root: 'readonly', path: '.' }))).code).toBe('TOOL_NOT_ALLOWED');
  });
});

describe('mode strings', () => {
  it.each([
    ['file', 0o644, '0644', '-rw-r--r--'],
    ['file', 0o000, '0000', '----------'],
    ['file', 0o4755, '4755', '-rwsr-xr-x'],
    ['file', 0o4644, '4644', '-rwSr--r--'],
    ['file', 0o2755, '2755', '-rwxr-sr-x'],
    ['file', 0o2745, '2745', '-rwxr-Sr-x'],
    ['directory', 0o1777, '1777', 'drwxrwxrwt'],
    ['directory', 0o1776, '1776', 'drwxrwxrwT'],
    ['directory', 0o7777, '7777', 'drwsrwsrwt'],
    ['symlink', 0o777, '0777', 'lrwxrwxrwx'],
    ['other', 0o600, '0600', '?rw-------'],
  ] as const)('%s %o -> %s %s', (kind, permissions, octal, symbolic) => {
    expect(octalMode(permissions)).toBe(octal);
    expect(symbolicMode(kind, permissions)).toBe(symbolic);
  });
});
