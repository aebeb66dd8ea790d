import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import type { Clock } from '../../../src/domain/ports/clock.port.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { domainError } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

const root = makeRoot('workspace', '/ws');
const at = (rel: string): RootPath => ({ root, segments: rel === '' ? [] : rel.split('/') });
const bytes = (text: string) => new TextEncoder().encode(text);
const replace = { mode: 'replace', createParents: false } as const;

class SteppingClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

describe('InMemoryFileSystem seeding and inspection', () => {
  it('seeds directories with mkdir -p and default or given permissions', () => {
    const fs = new InMemoryFileSystem();
    fs.seedDirectory('/ws/a/b');
    fs.seedDirectory('/ws/locked', { permissions: 0o700 });
    expect(fs.kindOf('/ws/a')).toBe('directory');
    expect(fs.permissionsOf('/ws/a/b')).toBe(0o755);
    expect(fs.permissionsOf('/ws/locked')).toBe(0o700);
    expect(fs.list('/ws')).toEqual(['a', 'locked']);
  });

  it('seeds files from text or bytes, creating parents, with permissions and mtime', () => {
    const fs = new InMemoryFileSystem();
    const modifiedAt = new Date('2025-06-01T12:00:00Z');
    fs.seedFile('/ws/deep/dir/a.txt', 'héllo', { permissions: 0o600, modifiedAt });
    fs.seedFile('/ws/b.bin', new Uint8Array([0, 255]));
    expect(fs.readText('/ws/deep/dir/a.txt')).toBe('héllo');
    expect(fs.readBytes('/ws/b.bin')).toEqual(new Uint8Array([0, 255]));
    expect(fs.permissionsOf('/ws/deep/dir/a.txt')).toBe(0o600);
    expect(fs.permissionsOf('/ws/b.bin')).toBe(0o644);
    expect(fs.modifiedAtOf('/ws/deep/dir/a.txt')).toEqual(modifiedAt);
    expect(fs.kindOf('/ws/deep')).toBe('directory');
  });

  it('seeds symlinks with raw text and inspects them with lstat semantics', () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/real.txt', 'real');
    fs.seedSymlink('/ws/link', 'real.txt');
    fs.seedSymlink('/ws/dangling', '/nowhere/at/all');
    expect(fs.kindOf('/ws/link')).toBe('symlink');
    expect(fs.readText('/ws/link')).toBeUndefined();
    expect(fs.linkTextOf('/ws/dangling')).toBe('/nowhere/at/all');
    expect(fs.exists('/ws/dangling')).toBe(true);
    expect(fs.exists('/ws/missing')).toBe(false);
    expect(fs.readText('/ws/missing')).toBeUndefined();
    expect(fs.list('/ws/real.txt')).toEqual([]);
  });

  it('refuses to seed through a non-directory', () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/a.txt', 'x');
    expect(() => fs.seedFile('/ws/a.txt/b.txt', 'y')).toThrow(/not a directory/);
  });

  it('stamps entries with the default fixed clock (2026-01-01T00:00:00Z)', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedDirectory('/ws');
    await fs.writeFile(at('new.txt'), bytes('x'), replace);
    expect(fs.modifiedAtOf('/ws/new.txt')).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect((await fs.stat(at('new.txt')))?.createdAt).toEqual(new Date('2026-01-01T00:00:00Z'));
  });

  it('updates mtime from the injected clock on write but keeps createdAt', async () => {
    const clock = new SteppingClock(new Date('2030-05-05T00:00:00Z'));
    const fs = new InMemoryFileSystem({ clock });
    fs.seedFile('/ws/a.txt', 'one');
    clock.advance(60_000);
    await fs.writeFile(at('a.txt'), bytes('two'), replace);
    const stat = await fs.stat(at('a.txt'));
    expect(stat?.modifiedAt).toEqual(new Date('2030-05-05T00:01:00Z'));
    expect(stat?.createdAt).toEqual(new Date('2030-05-05T00:00:00Z'));
    expect(stat).toMatchObject({ uid: 1000, gid: 1000, size: 3, permissions: 0o644 });
  });

  it('does not alias the caller-supplied buffers', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedDirectory('/ws');
    const data = bytes('abc');
    await fs.writeFile(at('a.txt'), data, replace);
    data[0] = 0x7a;
    const read = fs.readBytes('/ws/a.txt');
    expect(read && new TextDecoder().decode(read)).toBe('abc');
  });

  it('names uid/gid 1000 "agent" and falls back to the number', async () => {
    const fs = new InMemoryFileSystem();
    expect(await fs.ownerNames(1000, 1000)).toEqual({ owner: 'agent', group: 'agent' });
    expect(await fs.ownerNames(4242, 77)).toEqual({ owner: '4242', group: '77' });
  });
});

describe('InMemoryFileSystem simulated devices', () => {
  it('reports cross-device for a rename onto another device and changes nothing', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/a.txt', 'a');
    fs.seedDirectory('/ws/mnt');
    fs.seedDevice('/ws/mnt', 2);
    expect(await fs.rename(at('a.txt'), at('mnt/a.txt'))).toBe('cross-device');
    expect(fs.readText('/ws/a.txt')).toBe('a');
    expect(fs.list('/ws/mnt')).toEqual([]);
  });

  it('renames normally within one device, including inside a seeded device', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/mnt/a.txt', 'a');
    fs.seedDevice('/ws/mnt', 2);
    expect(await fs.rename(at('mnt/a.txt'), at('mnt/b.txt'))).toBe('renamed');
    expect(fs.list('/ws/mnt')).toEqual(['b.txt']);
  });

  it('puts a root on its own device: renames across roots are cross-device', async () => {
    const fs = new InMemoryFileSystem();
    const backup = makeRoot('backup', '/backup');
    fs.seedFile('/ws/a.txt', 'a');
    fs.seedDirectory('/backup');
    fs.seedDevice('/backup', 7);
    expect(await fs.rename(at('a.txt'), { root: backup, segments: ['a.txt'] })).toBe('cross-device');
    expect(fs.exists('/ws/a.txt')).toBe(true);
  });
});

describe('InMemoryFileSystem failNextWrite (NFR-014)', () => {
  it('fails the next replace with IO_ERROR and leaves the file exactly as before', async () => {
    const fs = new InMemoryFileSystem();
    const modifiedAt = new Date('2025-01-01T00:00:00Z');
    fs.seedFile('/ws/a.txt', 'original', { permissions: 0o600, modifiedAt });
    fs.failNextWrite('/ws/a.txt');
    const error = await domainError(fs.writeFile(at('a.txt'), bytes('new content'), replace));
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).not.toContain('/ws');
    expect(fs.readText('/ws/a.txt')).toBe('original');
    expect(fs.permissionsOf('/ws/a.txt')).toBe(0o600);
    expect(fs.modifiedAtOf('/ws/a.txt')).toEqual(modifiedAt);
  });

  it('fails only once', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/a.txt', 'original');
    fs.failNextWrite('/ws/a.txt');
    await domainError(fs.writeFile(at('a.txt'), bytes('x'), replace));
    await fs.writeFile(at('a.txt'), bytes('second'), replace);
    expect(fs.readText('/ws/a.txt')).toBe('second');
  });

  it('leaves no file behind when the failed write would have created it, in any mode', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedDirectory('/ws');
    for (const mode of ['replace', 'create_exclusive', 'append'] as const) {
      fs.failNextWrite('/ws/new.txt');
      const error = await domainError(fs.writeFile(at('new.txt'), bytes('x'), { mode, createParents: false }));
      expect(error.code).toBe('IO_ERROR');
      expect(fs.exists('/ws/new.txt')).toBe(false);
    }
  });

  it('leaves an appended file untouched', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/log.txt', 'line1\n');
    fs.failNextWrite('/ws/log.txt');
    await domainError(fs.writeFile(at('log.txt'), bytes('line2\n'), { mode: 'append', createParents: false }));
    expect(fs.readText('/ws/log.txt')).toBe('line1\n');
  });

  it('applies to the target of a link written through, by either name', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/real.txt', 'original');
    fs.seedSymlink('/ws/link', 'real.txt');
    fs.failNextWrite('/ws/real.txt');
    await domainError(fs.writeFile(at('link'), bytes('x'), replace));
    fs.failNextWrite('/ws/link');
    await domainError(fs.writeFile(at('link'), bytes('y'), replace));
    expect(fs.readText('/ws/real.txt')).toBe('original');
  });

  it('fails a copy onto the path and keeps the destination as before', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/src.txt', 'source');
    fs.seedFile('/ws/dst.txt', 'destination');
    fs.failNextWrite('/ws/dst.txt');
    const error = await domainError(fs.copyFile(at('src.txt'), at('dst.txt')));
    expect(error.code).toBe('IO_ERROR');
    expect(fs.readText('/ws/dst.txt')).toBe('destination');
  });
});

describe('InMemoryFileSystem open files', () => {
  it('reads from a snapshot taken at open time', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/a.txt', 'abcdef');
    const file = await fs.openFile(at('a.txt'));
    await fs.writeFile(at('a.txt'), bytes('XXXXXX'), replace);
    expect(new TextDecoder().decode(await file.read(2, 3))).toBe('cde');
    await file.close();
  });
});
