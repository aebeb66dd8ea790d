import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';
import { expectError, success, writeTree } from '../support/fixtures.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);

const live = useTestServer({ roots: [{ name: 'workspace' }, { name: 'readonly', allowedTools: ['read_file'] }] });

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');
const view = (args: Record<string, unknown>, on = live.client) => callTool(on, 'view', args);
const strReplace = (args: Record<string, unknown>, on = live.client) => callTool(on, 'str_replace', args);
const createFile = (args: Record<string, unknown>, on = live.client) => callTool(on, 'create_file', args);

describe('tools/list', () => {
  it('offers the editor, repo and cwd tools with schemas and annotations', async () => {
    const tools = new Map((await live.client.listTools()).tools.map((tool) => [tool.name, tool]));
    for (const name of ['view', 'str_replace', 'create_file', 'file_read', 'file_write', 'file_list', 'change_directory']) {
      expect(tools.get(name)?.outputSchema).toBeDefined();
    }
    // Listed without the hints the spec gives no meaning on a read-only tool.
    expect(tools.get('view')!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools.get('view')!.inputSchema.required).toEqual(['path']);
    // readOnlyHint false is the spec default, so it is left out.
    expect(tools.get('create_file')!.annotations).toEqual({ destructiveHint: true, idempotentHint: true, openWorldHint: false });
  });
});

describe('view over MCP', () => {
  beforeAll(async () => {
    await writeTree(live.root, { 'v/three.txt': 'alpha\nbeta\ngamma\n', 'v/100.txt': lines(100), 'v/42.txt': lines(42), 'v/5000.txt': lines(5000) });
  });

  it('Read entire file: 3 numbered lines, plus structured metadata', async () => {
    const { text, structured } = success(await view({ path: '/workspace/v/three.txt' }));
    expect(text).toBe('   1\talpha\n   2\tbeta\n   3\tgamma');
    expect(structured).toEqual({ path: '/workspace/v/three.txt', type: 'text', size: 17, start_line: 1, end_line: 3, total_lines: 3, truncated: false });
  });

  it('Read line range: [10, 20] returns lines 10..20', async () => {
    const { text } = success(await view({ path: '/workspace/v/100.txt', view_range: [10, 20] }));
    expect(text.split('\n')).toEqual(Array.from({ length: 11 }, (_, i) => `  ${10 + i}\tline ${10 + i}`));
  });

  it('view_range end clamped to file length', async () => {
    const { structured } = success(await view({ path: '/workspace/v/42.txt', view_range: [10, 100] }));
    expect(structured).toMatchObject({ start_line: 10, end_line: 42, total_lines: 42 });
  });

  it('view_range start exceeds file length', async () => {
    expectError(await view({ path: '/workspace/v/42.txt', view_range: [100, 200] }), 'INVALID_ARGUMENT', 'which has 42 lines');
  });

  it('Invalid view_range start', async () => {
    expectError(await view({ path: '/workspace/v/42.txt', view_range: [0, 5] }), 'INVALID_ARGUMENT', '1 <= start <= end');
    expectError(await view({ path: '/workspace/v/42.txt', view_range: [9, 3] }), 'INVALID_ARGUMENT', '1 <= start <= end');
  });

  it('Long line truncation', async () => {
    await writeTree(live.root, { 'v/min.js': `${'y'.repeat(5000)}\n` });
    expect(success(await view({ path: '/workspace/v/min.js' })).text).toBe(`   1\t${'y'.repeat(2000)}... [truncated, 5000 chars total]`);
  });

  it('Large file truncation', async () => {
    const out = success(await view({ path: '/workspace/v/5000.txt' })).text.split('\n');
    expect(out).toHaveLength(2001);
    expect(out[2000]).toBe('Truncated: file has 5000 lines. Use view_range to read specific sections.');
  });

  it('Efficient range reading: [1, 10] of a 9 MB file', async () => {
    const content = lines(800_000);
    expect(content.length).toBeGreaterThan(9 * 1000 * 1000);
    await fs.writeFile(join(live.root, 'v/huge.log'), content);
    const { text, structured } = success(await view({ path: '/workspace/v/huge.log', view_range: [1, 10] }));
    expect(text.split('\n')).toHaveLength(10);
    expect(text.split('\n')[9]).toBe('  10\tline 10');
    expect(structured.total_lines).toBeUndefined();
  });

  it('Binary file detected', async () => {
    const binary = Buffer.alloc(Math.round(2.4 * 1024 * 1024));
    binary.write('\x7fELF', 0, 'latin1');
    await fs.writeFile(join(live.root, 'v/app'), binary);
    const outcome = await view({ path: '/workspace/v/app' });
    expect(success(outcome).text).toMatch(/^Binary file \(2\.4 MB\)/);
    expect(outcome.content.some((block) => block.type === 'image')).toBe(false);
  });

  it.each([
    ['PNG file returned as ImageContent', 'logo.png', PNG, 'image/png'],
    ['JPEG file returned as ImageContent', 'photo.jpeg', JPEG, 'image/jpeg'],
    ['Image with wrong extension still detected', 'photo.dat', PNG, 'image/png'],
    ['SVG file detected by extension', 'icon.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
  ])('%s', async (_, name, bytes, mimeType) => {
    await writeTree(live.root, { [`img/${name}`]: bytes });
    const outcome = await view({ path: `/workspace/img/${name}` });
    const image = outcome.content.find((block) => block.type === 'image');
    expect(image).toEqual({ type: 'image', data: bytes.toString('base64'), mimeType });
    expect(success(outcome).structured).toEqual({ path: `/workspace/img/${name}`, type: 'image', size: bytes.length, mime_type: mimeType });
  });

  it('Unrecognized binary file still shows size message', async () => {
    await writeTree(live.root, { 'img/module.wasm': Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]) });
    expect(success(await view({ path: '/workspace/img/module.wasm' })).text).toMatch(/^Binary file \(8 bytes\)/);
  });

  it('File exceeds max size: a 50 MB file against the default 10 MB limit', async () => {
    await fs.writeFile(join(live.root, 'v/huge.bin'), '');
    await fs.truncate(join(live.root, 'v/huge.bin'), 50 * 1024 * 1024);
    expectError(await view({ path: '/workspace/v/huge.bin' }), 'FILE_TOO_LARGE', '52428800 bytes', '10485760 bytes');
  });

  it('Directory listing, dotfiles visible except .git, symlinks indicated', async () => {
    await writeTree(live.root, {
      'p/.github/workflows/ci.yml': 'on: push\n',
      'p/.dockerignore': 'x\n',
      'p/.env': 'A=1\n',
      'p/.git/HEAD': 'ref\n',
      'p/node_modules/m/index.js': '\n',
      'p/src/main.go': 'package main\n',
      'p/src/pkg/deep/x.go': 'x\n',
    });
    await fs.symlink('/usr/local/bin', join(live.root, 'p/link'));
    await fs.symlink(join(live.root, 'p/src/main.go'), join(live.root, 'p/main-link'));
    const { text, structured } = success(await view({ path: '/workspace/p' }));
    expect(text.split('\n').slice(1)).toEqual([
      '.dockerignore',
      '.env',
      '.github/',
      '.github/workflows/',
      // The spec's scenario shows `link -> /usr/local/bin`, but the issue for these tools says "Host
      // paths never appear" and the issue wins: the text of a link out of the root is never shown.
      'link -> [outside the root]',
      'main-link -> /workspace/p/src/main.go',
      'src/',
      'src/main.go',
      'src/pkg/',
    ]);
    expect(text).not.toContain(live.root);
    expect(text).not.toContain('/usr/local/bin');
    expect(structured).toEqual({ path: '/workspace/p', type: 'directory', entries: 9, truncated: false });
  });

  it('Symlink followed', async () => {
    await writeTree(live.root, { 'v/target.txt': 'through the link\n' });
    await fs.symlink('target.txt', join(live.root, 'v/alias.txt'));
    expect(success(await view({ path: '/workspace/v/alias.txt' })).text).toBe('   1\tthrough the link');
  });

  it('Relative path resolution against the session cwd', async () => {
    const other = await live.server.connect();
    await writeTree(live.root, { 'project/src/main.go': 'package main\n' });
    expect(success(await callTool(other, 'change_directory', { path: '/workspace/project' }))).toEqual({
      text: 'Working directory: /workspace/project',
      structured: { cwd: '/workspace/project' },
    });
    expect(success(await view({ path: 'src/main.go' }, other)).structured.path).toBe('/workspace/project/src/main.go');
    // The first client's cwd is untouched.
    expectError(await view({ path: 'src/main.go' }), 'NOT_FOUND', '/workspace/src/main.go');
  });

  it('File not found (view and str_replace)', async () => {
    expectError(await view({ path: 'missing.txt' }), 'NOT_FOUND', 'path not found: /workspace/missing.txt');
    expectError(await strReplace({ path: 'missing.txt', old_str: 'a', new_str: 'b' }), 'NOT_FOUND', '/workspace/missing.txt');
  });

  it('view / lists the roots', async () => {
    expect(success(await view({ path: '/' })).text.split('\n').slice(1)).toEqual(['workspace/', 'readonly/']);
  });

  it('TOOL_NOT_ALLOWED on a root whose allowlist lacks the tool', async () => {
    const outcome = await view({ path: '/readonly' });
    expect(outcome).toMatchObject({ isError: true, text: 'TOOL_NOT_ALLOWED: tool view not allowed on root readonly' });
  });
});

describe('str_replace over MCP', () => {
  async function seedAndView(name: string, content: string | Buffer) {
    await writeTree(live.root, { [`e/${name}`]: content });
    success(await view({ path: `/workspace/e/${name}` }));
  }

  it('Successful unique replacement with a context snippet', async () => {
    await seedAndView('u.txt', 'a\nb\nc\n');
    const { text, structured } = success(await strReplace({ path: '/workspace/e/u.txt', old_str: 'b', new_str: 'B' }));
    expect(structured).toEqual({ path: '/workspace/e/u.txt', replacements: 1, size: 6, match: 'exact' });
    expect(text).toBe('Edited /workspace/e/u.txt: replaced 1 occurrence.\nSnippet (lines 1-3):\n   1\ta\n   2\tB\n   3\tc');
    expect(await fs.readFile(join(live.root, 'e/u.txt'), 'utf8')).toBe('a\nB\nc\n');
  });

  it('String not found, ambiguous match, replace all with no match', async () => {
    await seedAndView('amb.txt', 'x\nx\nx\n');
    expectError(await strReplace({ path: '/workspace/e/amb.txt', old_str: 'nope', new_str: '' }), 'NO_MATCH', 'old_str not found');
    expectError(await strReplace({ path: '/workspace/e/amb.txt', old_str: 'x', new_str: 'y' }), 'MULTIPLE_MATCHES', 'occurs 3 times', 'unique');
    expectError(await strReplace({ path: '/workspace/e/amb.txt', old_str: 'q', replace_all: true }), 'NO_MATCH', 'old_str not found');
  });

  it('Deletion (omitted new_str)', async () => {
    await seedAndView('del.txt', 'keep drop keep\n');
    success(await strReplace({ path: '/workspace/e/del.txt', old_str: ' drop' }));
    expect(await fs.readFile(join(live.root, 'e/del.txt'), 'utf8')).toBe('keep keep\n');
  });

  it('Replace all occurrences (15)', async () => {
    await seedAndView('all.txt', 'foo\n'.repeat(15));
    const { structured } = success(await strReplace({ path: '/workspace/e/all.txt', old_str: 'foo', new_str: 'bar', replace_all: true }));
    expect(structured.replacements).toBe(15);
    expect(await fs.readFile(join(live.root, 'e/all.txt'), 'utf8')).toBe('bar\n'.repeat(15));
  });

  it('Permissions preserved (0755), CRLF preserved, $& literal', async () => {
    await seedAndView('run.sh', '#!/bin/sh\r\necho hi\r\n');
    await fs.chmod(join(live.root, 'e/run.sh'), 0o755);
    success(await strReplace({ path: '/workspace/e/run.sh', old_str: '#!/bin/sh\necho hi', new_str: '#!/bin/sh\necho "$&"\nexit 0' }));
    expect(await fs.readFile(join(live.root, 'e/run.sh'), 'utf8')).toBe('#!/bin/sh\r\necho "$&"\r\nexit 0\r\n');
    expect((await fs.stat(join(live.root, 'e/run.sh'))).mode & 0o7777).toBe(0o755);
  });

  it('Path scoping enforced: outside the root is ACCESS_DENIED', async () => {
    await fs.mkdir(join(live.root, 'e'), { recursive: true });
    await fs.symlink('/etc/hostname', join(live.root, 'e/escape'));
    expectError(await strReplace({ path: '/workspace/../../etc/passwd', old_str: 'root' }), 'ACCESS_DENIED');
    expectError(await strReplace({ path: '/workspace/e/escape', old_str: 'a' }), 'ACCESS_DENIED', '/workspace/e/escape');
  });
});

describe('create_file over MCP', () => {
  it('Create new file with parents, mode 0644, confirmed with path and size', async () => {
    const { text, structured } = success(await createFile({ path: '/workspace/c/src/pkg/new/file.go', content: 'package new\n' }));
    expect(structured).toEqual({ path: '/workspace/c/src/pkg/new/file.go', size: 12, created: true });
    expect(text).toBe('Created /workspace/c/src/pkg/new/file.go (12 bytes)');
    expect((await fs.stat(join(live.root, 'c/src/pkg/new/file.go'))).mode & 0o777).toBe(0o644);
    expect((await fs.stat(join(live.root, 'c/src/pkg/new'))).mode & 0o777).toBe(0o755);
  });

  it('Overwrite existing file after a view; rejected without one', async () => {
    await writeTree(live.root, { 'c/existing.txt': 'old\n' });
    expectError(await createFile({ path: '/workspace/c/existing.txt', content: 'new\n' }), 'FILE_NOT_VIEWED', '/workspace/c/existing.txt');
    expect(await fs.readFile(join(live.root, 'c/existing.txt'), 'utf8')).toBe('old\n');
    success(await view({ path: '/workspace/c/existing.txt' }));
    expect(success(await createFile({ path: '/workspace/c/existing.txt', content: 'new\n' })).structured.created).toBe(false);
    expect(await fs.readFile(join(live.root, 'c/existing.txt'), 'utf8')).toBe('new\n');
  });

  it('Path scoping enforced', async () => {
    expectError(await createFile({ path: '../escape.txt', content: 'x' }), 'ACCESS_DENIED');
  });
});

describe('settings over MCP', () => {
  const small = useTestServer({ settings: { maxFileSize: 1024 } });

  it('Content exceeds max size (create_file)', async () => {
    expectError(await createFile({ path: 'big.txt', content: 'x'.repeat(2000) }, small.client), 'FILE_TOO_LARGE', 'max_file_size', '1024 bytes');
    await expect(fs.access(join(small.root, 'big.txt'))).rejects.toThrow();
  });

  it('Image file exceeding size limit', async () => {
    await writeTree(small.root, { 'big.png': Buffer.concat([PNG, Buffer.alloc(4096)]) });
    expectError(await view({ path: 'big.png' }, small.client), 'FILE_TOO_LARGE', '4112 bytes');
  });
});
