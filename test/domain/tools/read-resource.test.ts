import type { Settings } from '../../../src/domain/settings.js';
import { ReadFile } from '../../../src/domain/tools/read-file.js';
import { ReadResource } from '../../../src/domain/tools/read-resource.js';
import { rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { domainError, fileToolsWorld } from './file-tools-harness.js';

function resourcesWorld(settings: Partial<Settings> = {}) {
  const world = fileToolsWorld(settings);
  const access = rootAccess(makeRoot('workspace', '/ws'), makeRoot('readonly', '/ro', ['list_folder', 'read_file']), makeRoot('hidden', '/hid', ['list_folder']));
  world.fs.seedDirectory('/hid');
  const resources = new ReadResource(access, world.fs, new ReadFile(access, world.fs, world.settings), world.settings);
  return { ...world, resources };
}

describe('ReadResource', () => {
  it('offers the roots that allow read_file, in configured order', () => {
    expect(resourcesWorld().resources.roots()).toEqual(['workspace', 'readonly']);
  });

  it('reads text raw and binary as base64', async () => {
    const { fs, resources } = resourcesWorld();
    fs.seedFile('/ws/a.md', '# "A"\n');
    fs.seedFile('/ws/b.bin', new Uint8Array([1, 0, 2]));
    expect(await resources.read('workspace', 'a.md')).toEqual({ kind: 'text', path: 'a.md', text: '# "A"\n' });
    expect(await resources.read('workspace', 'b.bin')).toEqual({ kind: 'binary', path: 'b.bin', base64: 'AQAC' });
  });

  it('lists a directory sorted, marking directories and in-root links to directories', async () => {
    const { fs, resources } = resourcesWorld();
    fs.seedFile('/ws/src/z.ts', '');
    fs.seedFile('/ws/b.txt', '');
    fs.seedSymlink('/ws/a-link', 'src');
    fs.seedSymlink('/ws/out', '/outside');
    expect(await resources.read('workspace', '.')).toEqual({
      kind: 'directory',
      path: '.',
      entries: [
        { name: 'a-link', directory: true },
        { name: 'b.txt', directory: false },
        { name: 'out', directory: false },
        { name: 'src', directory: true },
      ],
      omitted: 0,
    });
  });

  it('refuses a root without read_file, escapes and outside links, naming no host path', async () => {
    const { fs, resources } = resourcesWorld();
    fs.seedFile('/hid/x.txt', 'x');
    fs.seedSymlink('/ws/secret', '/outside/secret.txt');
    expect((await domainError(resources.read('hidden', 'x.txt'))).code).toBe('TOOL_NOT_ALLOWED');
    for (const path of ['../outside/secret.txt', 'secret']) {
      const error = await domainError(resources.read('workspace', path));
      expect(['ACCESS_DENIED', 'NOT_FOUND', 'INVALID_PATH']).toContain(error.code);
      expect(error.toClientText()).not.toContain('TOP SECRET');
      expect(error.toClientText()).not.toMatch(/\/ws\b/);
    }
  });

  it('lists only the entries that fit the result budget and counts the rest', async () => {
    const { fs, resources } = resourcesWorld({ maxResultBytes: 256 + 12 });
    for (const name of ['aaa', 'bbb', 'ccc', 'ddd']) fs.seedFile(`/ws/${name}`, '');
    // Each entry costs its name, a newline (2 escaped) and room for a '/'.
    expect(await resources.read('workspace', '.')).toMatchObject({ entries: [{ name: 'aaa' }, { name: 'bbb' }], omitted: 2 });
  });

  it('refuses a file the result budget would cut, since a resource cannot be paged', async () => {
    const { fs, resources } = resourcesWorld({ maxResultBytes: 10 });
    fs.seedFile('/ws/long.txt', '"'.repeat(6));
    expect((await domainError(resources.read('workspace', 'long.txt'))).code).toBe('FILE_TOO_LARGE');
  });
});
