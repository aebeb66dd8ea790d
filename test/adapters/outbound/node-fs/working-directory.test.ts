import { closeSync, constants, mkdirSync, openSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkingDirectory } from '../../../../src/adapters/outbound/node-fs/working-directory.js';

describe('WorkingDirectory', () => {
  const before = process.cwd();
  let base: string;
  let fd: number;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'working-directory-')));
    mkdirSync(join(base, 'held'));
    mkdirSync(join(base, 'home'));
    writeFileSync(join(base, 'held', 'name.txt'), 'in the held directory');
    fd = openSync(join(base, 'held'), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    process.chdir(join(base, 'home'));
  });

  afterEach(async () => {
    closeSync(fd);
    process.chdir(before);
    await rm(base, { recursive: true, force: true });
  });

  it('looks bare names up in the held directory while the action runs, and goes back after', () => {
    const text = WorkingDirectory.within(fd, () => readFileSync('name.txt', 'utf8'));
    expect(text).toBe('in the held directory');
    expect(process.cwd()).toBe(join(base, 'home'));
  });

  it('goes back when the action throws', () => {
    expect(() => WorkingDirectory.within(fd, () => readFileSync('missing.txt'))).toThrow(/ENOENT/);
    expect(process.cwd()).toBe(join(base, 'home'));
  });

  it('leaves the held directory for / when the way back was removed during the action', () => {
    WorkingDirectory.within(fd, () => rmdirSync(join(base, 'home')));
    expect(process.cwd()).toBe('/');
  });
});
