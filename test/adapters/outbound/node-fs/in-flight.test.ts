import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import { makeRoot } from '../../../support/roots.js';

// Issue 7: temp and lock files of a process that died mid-write are removed at start-up.
let base: string;
let stateDir: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-in-flight-')));
  stateDir = join(base, 'state');
  root = join(base, 'root');
  mkdirSync(stateDir);
  mkdirSync(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('InFlightWrites recovery at start-up', () => {
  it('removes the temp and lock files a dead process recorded, and their records', () => {
    const dead = deadPid();
    writeFileSync(join(root, '.mcp-fs-0123456789abcdef.tmp'), 'half a write');
    writeFileSync(join(root, '.mcp-fs-00000000000000aa.lock'), `host\n${dead}\nx\n`);
    writeFileSync(join(stateDir, `${dead}-000000000001`), join(root, '.mcp-fs-0123456789abcdef.tmp'));
    writeFileSync(join(stateDir, `${dead}-000000000002`), join(root, '.mcp-fs-00000000000000aa.lock'));
    new NodeFileSystem({ stateDir });
    expect(readdirSync(root)).toEqual([]);
    expect(readdirSync(stateDir)).toEqual([]);
  });

  it('keeps what a live process is writing, a lock another process took since, and anything not ours', () => {
    const dead = deadPid();
    const live = process.ppid;
    writeFileSync(join(root, '.mcp-fs-1111111111111111.tmp'), 'in flight');
    writeFileSync(join(stateDir, `${live}-000000000001`), join(root, '.mcp-fs-1111111111111111.tmp'));
    writeFileSync(join(root, '.mcp-fs-22222222222222bb.lock'), `host\n${live}\nx\n`);
    writeFileSync(join(stateDir, `${dead}-000000000002`), join(root, '.mcp-fs-22222222222222bb.lock'));
    // Security: a forged record naming some other file is never acted on.
    writeFileSync(join(root, 'important.txt'), 'keep me');
    writeFileSync(join(stateDir, `${dead}-000000000003`), join(root, 'important.txt'));
    new NodeFileSystem({ stateDir });
    expect(readdirSync(root).sort()).toEqual(['.mcp-fs-1111111111111111.tmp', '.mcp-fs-22222222222222bb.lock', 'important.txt']);
    expect(readdirSync(stateDir)).toEqual([`${live}-000000000001`]);
    expect(existsSync(join(root, 'important.txt'))).toBe(true);
  });

  it('a finished write leaves no record behind', async () => {
    const fs = new NodeFileSystem({ stateDir });
    const at = { root: makeRoot('workspace', root), segments: ['a.txt'] };
    await fs.writeFile(at, new TextEncoder().encode('done'), { mode: 'replace', createParents: false });
    const lock = await fs.lockFile(at);
    await lock.release();
    expect(readdirSync(stateDir)).toEqual([]);
    expect(readdirSync(root)).toEqual(['a.txt']);
  });
});

describe('InFlightWrites state directory', () => {
  // Security: another local user could pre-create the directory in the shared temp dir to forge records.
  it('refuses a state directory others may write to, or a link in its place', () => {
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => new NodeFileSystem({ stateDir: open })).toThrow(/write state directory .*open is writable by others \(mode 777\)/);
    const link = join(base, 'link');
    symlinkSync(stateDir, link);
    expect(() => new NodeFileSystem({ stateDir: link })).toThrow(/write state directory .*link is a symbolic link/);
    // Another user's directory: only root can make one here (CI runs as root).
    if (process.getuid?.() === 0) {
      const foreign = join(base, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 65534, 65534);
      expect(() => new NodeFileSystem({ stateDir: foreign })).toThrow(/write state directory .*foreign belongs to uid 65534, not 0/);
    }
  });

  it('accepts a private directory of this user', () => {
    chmodSync(stateDir, 0o700);
    expect(() => new NodeFileSystem({ stateDir })).not.toThrow();
  });
});
