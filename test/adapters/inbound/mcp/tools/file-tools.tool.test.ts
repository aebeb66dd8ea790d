import { createFolderTool } from '../../../../../src/adapters/inbound/mcp/tools/create-folder.tool.js';
import { hashFileTool } from '../../../../../src/adapters/inbound/mcp/tools/hash-file.tool.js';
import { listFolderTool } from '../../../../../src/adapters/inbound/mcp/tools/list-folder.tool.js';
import { listRootsTool } from '../../../../../src/adapters/inbound/mcp/tools/list-roots.tool.js';
import { patchFileTool } from '../../../../../src/adapters/inbound/mcp/tools/patch-file.tool.js';
import { permissionsFileTool } from '../../../../../src/adapters/inbound/mcp/tools/permissions-file.tool.js';
import { readFileTool } from '../../../../../src/adapters/inbound/mcp/tools/read-file.tool.js';
import { removeFileTool } from '../../../../../src/adapters/inbound/mcp/tools/remove-file.tool.js';
import { removeFolderTool } from '../../../../../src/adapters/inbound/mcp/tools/remove-folder.tool.js';
import { statFileTool } from '../../../../../src/adapters/inbound/mcp/tools/stat-file.tool.js';
import { writeFileTool } from '../../../../../src/adapters/inbound/mcp/tools/write-file.tool.js';
import { fileToolsWorld } from '../../../../domain/tools/file-tools-harness.js';
import { byName, callChecked, expectEveryInputDescribed, readOnlyAndDestructiveHints } from './tool-definition-harness.js';

function definitions() {
  const world = fileToolsWorld({ maxFullReadSize: 1024 * 1024 });
  world.fs.seedFile('/ws/a.txt', 'one\ntwo\nthree\n');
  world.fs.seedFile('/ws/blob.bin', new Uint8Array([0, 1, 2]));
  world.fs.seedDirectory('/ws/dir');
  world.fs.seedSymlink('/ws/inside', 'a.txt');
  world.fs.seedSymlink('/ws/outside', '/outside/secret.txt');
  world.fs.seedSymlink('/ws/dangling', 'gone');
  const tools = [
    listRootsTool(world.listRoots),
    listFolderTool(world.listFolder, world.settings),
    readFileTool(world.readFile, world.settings),
    writeFileTool(world.writeFile),
    removeFileTool(world.removeFile),
    patchFileTool(world.patchFile, world.settings),
    createFolderTool(world.createFolder),
    removeFolderTool(world.removeFolder),
    statFileTool(world.statFile),
    hashFileTool(world.hashFile),
    permissionsFileTool(world.permissionsFile),
  ];
  return byName(tools);
}

describe('file tool definitions', () => {
  const W = { root: 'workspace' };

  it.each([
    ['list_roots', {}],
    ['list_folder', { ...W, path: '.' }],
    ['read_file', { ...W, path: 'a.txt' }],
    ['read_file', { ...W, path: 'a.txt', offset_lines: 2, limit_lines: 1 }],
    ['read_file', { ...W, path: 'blob.bin', offset_bytes: 1 }],
    ['write_file', { ...W, path: 'new.txt', content: 'x', mode: 'append' }],
    ['remove_file', { ...W, path: 'a.txt' }],
    ['patch_file', { ...W, path: 'a.txt', patch: '@@ -1 +1 @@\n-one\n+ONE\n' }],
    ['patch_file', { ...W, path: 'created.txt', patch: '@@ -0,0 +1 @@\n+new\n' }],
    ['create_folder', { ...W, path: 'x/y' }],
    ['remove_folder', { ...W, path: 'dir' }],
    ['stat_file', { ...W, path: 'a.txt' }],
    ['stat_file', { ...W, path: 'inside' }],
    ['stat_file', { ...W, path: 'outside' }],
    ['stat_file', { ...W, path: 'dangling' }],
    ['hash_file', { ...W, path: 'a.txt', algorithm: 'sha1' }],
    ['permissions_file', { ...W, path: 'dir' }],
  ])('%s %j: the result matches the declared outputSchema exactly', async (name, args) => {
    await expect(callChecked(definitions().get(name)!, args)).resolves.toBeDefined();
  });

  it('declares every input field with a description an LLM can read', () => {
    for (const tool of definitions().values()) {
      expectEveryInputDescribed(tool);
      expect(tool.description.length).toBeGreaterThan(100);
    }
  });

  it('annotates honestly: read tools are read-only, removals and overwrites destructive', () => {
    expect(readOnlyAndDestructiveHints(definitions().values())).toEqual({
      list_roots: [true, false],
      list_folder: [true, false],
      read_file: [true, false],
      stat_file: [true, false],
      hash_file: [true, false],
      permissions_file: [true, false],
      write_file: [false, true],
      remove_file: [false, true],
      remove_folder: [false, true],
      patch_file: [false, true],
      create_folder: [false, false],
    });
    expect(definitions().get('create_folder')!.annotations.idempotentHint).toBe(true);
  });

  it('states the configured read limit in the read_file description', () => {
    expect(definitions().get('read_file')!.description).toContain('max_full_read_size (1MB)');
  });

  it('logs root and path', () => {
    expect(definitions().get('stat_file')!.logFields({ root: 'workspace', path: 'a.txt' })).toEqual({ root: 'workspace', path: 'a.txt' });
  });
});
