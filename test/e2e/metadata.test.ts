import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { expectError, ok, writeTree } from '../support/fixtures.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const live = useTestServer();

function digest(algorithm: string, content: string): string {
  return createHash(algorithm).update(content).digest('hex');
}

describe('stat_file', () => {
  it('E2E-032: stat_file — file metadata', async () => {
    const content = '{"key": "value"}\n';
    await writeTree(live.root, { 'data.json': content });
    const modified = new Date('2024-03-04T05:06:07.000Z');
    await fs.utimes(join(live.root, 'data.json'), modified, modified);

    const stat = ok(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'data.json' }));
    expect(stat).toMatchObject({ name: 'data.json', path: 'data.json', size: Buffer.byteLength(content), is_directory: false, is_symlink: false });
    expect(stat.modified_at).toMatch(ISO_8601);
    expect(new Date(stat.modified_at).getTime()).toBe(modified.getTime());
  });

  it('E2E-033: stat_file — directory metadata', async () => {
    await writeTree(live.root, { 'subdir/file.txt': 'x' });

    const stat = ok(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'subdir' }));
    expect(stat).toMatchObject({ name: 'subdir', is_directory: true, is_symlink: false });
    expect(stat.modified_at).toMatch(ISO_8601);
  });

  it('E2E-034: stat_file — symlink metadata', async () => {
    await writeTree(live.root, { 'target.txt': 'target content\n' });
    await fs.symlink('target.txt', join(live.root, 'link'));

    const stat = ok(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'link' }));
    expect(stat).toMatchObject({ name: 'link', is_symlink: true });
    expect(stat.target).toMatchObject({ size: 15, is_directory: false });
    expect(stat.target.modified_at).toMatch(ISO_8601);
  });
});

describe('hash_file', () => {
  it('E2E-035: hash_file — sha256', async () => {
    await writeTree(live.root, { 'known.txt': 'test content\n' });

    const hashed = ok(await callTool(live.client, 'hash_file', { root: 'workspace', path: 'known.txt', algorithm: 'sha256' }));
    expect(hashed).toEqual(expect.objectContaining({ path: 'known.txt', algorithm: 'sha256', size: 13 }));
    expect(hashed.hash).toBe('a1fff0ffefb9eace7230c24e50731f0a91c62f9cefdfe77121c2f607125dffae');
    expect(hashed.hash).toBe(digest('sha256', 'test content\n'));
  });

  it('E2E-036: hash_file — md5 and sha1', async () => {
    const content = 'The quick brown fox jumps over the lazy dog';
    await writeTree(live.root, { 'known-36.txt': content });

    const md5 = ok(await callTool(live.client, 'hash_file', { root: 'workspace', path: 'known-36.txt', algorithm: 'md5' }));
    expect(md5).toMatchObject({ algorithm: 'md5', hash: '9e107d9d372bb6826bd81d3542a419d6' });
    expect(md5.hash).toBe(digest('md5', content));

    const sha1 = ok(await callTool(live.client, 'hash_file', { root: 'workspace', path: 'known-36.txt', algorithm: 'sha1' }));
    expect(sha1).toMatchObject({ algorithm: 'sha1', hash: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12' });
    expect(sha1.hash).toBe(digest('sha1', content));
  });

  it('E2E-037: hash_file — unsupported algorithm', async () => {
    await writeTree(live.root, { 'any.txt': 'any' });
    expectError(
      await callTool(live.client, 'hash_file', { root: 'workspace', path: 'any.txt', algorithm: 'md4' }),
      'INVALID_ARGUMENT',
      'unsupported hash algorithm: md4',
      'md5, sha1, sha256',
    );
  });

  it('E2E-038: hash_file — target is directory', async () => {
    await writeTree(live.root, { 'hashdir/file.txt': 'x' });
    expectError(await callTool(live.client, 'hash_file', { root: 'workspace', path: 'hashdir', algorithm: 'sha256' }), 'IS_A_DIRECTORY', 'hashdir');
  });
});

describe('permissions_file', () => {
  const owner = userInfo().username;
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();

  it('E2E-039: permissions_file — file permissions', async () => {
    await writeTree(live.root, { 'script.sh': '#!/bin/sh\necho hi\n' });
    await fs.chmod(join(live.root, 'script.sh'), 0o755);

    const perms = ok(await callTool(live.client, 'permissions_file', { root: 'workspace', path: 'script.sh' }));
    expect(perms).toEqual(expect.objectContaining({ path: 'script.sh', mode: '0755', mode_string: '-rwxr-xr-x', owner, group }));
  });

  it('E2E-040: permissions_file — directory permissions', async () => {
    await writeTree(live.root, { 'permdir/': '' });
    await fs.chmod(join(live.root, 'permdir'), 0o755);

    const perms = ok(await callTool(live.client, 'permissions_file', { root: 'workspace', path: 'permdir' }));
    expect(perms).toEqual(expect.objectContaining({ path: 'permdir', mode: '0755', mode_string: 'drwxr-xr-x', owner, group }));
  });
});
