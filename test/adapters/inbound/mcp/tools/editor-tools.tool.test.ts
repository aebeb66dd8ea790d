import { changeDirectoryTool } from '../../../../../src/adapters/inbound/mcp/tools/change-directory.tool.js';
import { createFileTool } from '../../../../../src/adapters/inbound/mcp/tools/create-file.tool.js';
import { fileListTool } from '../../../../../src/adapters/inbound/mcp/tools/file-list.tool.js';
import { fileReadTool } from '../../../../../src/adapters/inbound/mcp/tools/file-read.tool.js';
import { fileWriteTool } from '../../../../../src/adapters/inbound/mcp/tools/file-write.tool.js';
import { namespaceLogFields } from '../../../../../src/adapters/inbound/mcp/tools/namespace-tool-support.js';
import { strReplaceTool } from '../../../../../src/adapters/inbound/mcp/tools/str-replace.tool.js';
import { viewTool } from '../../../../../src/adapters/inbound/mcp/tools/view.tool.js';
import { editorWorld } from '../../../../domain/tools/editor-harness.js';
import { byName, callChecked, expectEveryInputDescribed, readOnlyAndDestructiveHints } from './tool-definition-harness.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

function definitions() {
  const world = editorWorld();
  world.fs.seedFile('/ws/a.txt', 'one\ntwo\nthree\n');
  world.fs.seedFile('/ws/blob.bin', Uint8Array.from([0, 1, 2]));
  world.fs.seedFile('/ws/pic.png', PNG);
  world.fs.seedFile('/ws/dir/inner.txt', 'x\n');
  world.fs.seedSymlink('/ws/dir/link', '/usr/local/bin');
  const tools = [
    viewTool(world.view, world.settings),
    strReplaceTool(world.strReplace),
    createFileTool(world.createFile, world.settings),
    fileReadTool(world.fileRead, world.settings),
    fileWriteTool(world.fileWrite, world.settings),
    fileListTool(world.fileList, world.settings),
    changeDirectoryTool(world.changeDirectory),
  ];
  return byName(tools);
}

describe('editor and repo tool definitions', () => {
  it.each([
    ['view', { path: '/workspace/a.txt' }],
    ['view', { path: 'a.txt', view_range: [2, -1] }],
    ['view', { path: 'blob.bin' }],
    ['view', { path: 'pic.png' }],
    ['view', { path: 'dir' }],
    ['view', { path: '/' }],
    ['file_read', { path: 'a.txt' }],
    ['file_read', { path: 'blob.bin' }],
    ['file_write', { path: 'new.txt', content: 'x' }],
    ['file_list', { path: 'dir' }],
    ['file_list', { path: '/', pattern: 'w*' }],
    ['file_list', {}],
    ['create_file', { path: 'created.txt', content: 'x' }],
    ['change_directory', { path: 'dir' }],
  ])('%s %j: the result matches the declared outputSchema exactly', async (name, args) => {
    await expect(callChecked(definitions().get(name)!, args)).resolves.toBeDefined();
  });

  it('str_replace after a view matches its outputSchema and confirms with a snippet', async () => {
    const tools = definitions();
    await callChecked(tools.get('view')!, { path: 'a.txt' });
    const output = await callChecked(tools.get('str_replace')!, { path: 'a.txt', old_str: 'two', new_str: '2' });
    expect(output.structured).toEqual({ path: '/workspace/a.txt', replacements: 1, size: 12, match: 'exact' });
    expect(output.text).toContain('   2\t2');
  });

  it('returns a view of an image as base64 image content', async () => {
    const output = await callChecked(definitions().get('view')!, { path: 'pic.png' });
    expect(output.image).toEqual({ data: Buffer.from(PNG).toString('base64'), mimeType: 'image/png' });
  });

  it('declares every input field with a description an LLM can read, and explains the namespace', () => {
    for (const tool of definitions().values()) {
      expectEveryInputDescribed(tool);
      expect(tool.description).toContain('/<root>/');
    }
  });

  it('states the configured limits', () => {
    const tools = definitions();
    expect(tools.get('view')!.description).toContain('max_file_size (10.0 MB)');
    expect(tools.get('create_file')!.description).toContain('max_file_size (10.0 MB');
    expect(tools.get('file_read')!.description).toContain('max_full_read_size (1.0 MB)');
  });

  it('annotates honestly: reads are read-only, whole-file overwrites destructive', () => {
    expect(readOnlyAndDestructiveHints(definitions().values())).toEqual({
      view: [true, false],
      file_read: [true, false],
      file_list: [true, false],
      change_directory: [true, false],
      str_replace: [false, true],
      create_file: [false, true],
      file_write: [false, true],
    });
  });

  it('logs the root when the path names one', () => {
    expect(namespaceLogFields('/workspace/src/a.ts')).toEqual({ root: 'workspace', path: '/workspace/src/a.ts' });
    expect(namespaceLogFields('src/a.ts')).toEqual({ path: 'src/a.ts' });
    expect(namespaceLogFields(undefined)).toEqual({});
  });
});
