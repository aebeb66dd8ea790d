import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { Namespace } from '../../../src/domain/namespace.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { View } from '../../../src/domain/tools/view.js';
import { makeRoot } from '../../support/roots.js';
import { CountingFileSystem, domainError, editorWorld, numberedLines } from './editor-harness.js';
import { toolPolicy } from '../../support/tools.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00');
const WEBP = Uint8Array.from([...new TextEncoder().encode('RIFF'), 0x24, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8 '), 0]);

function view(world: ReturnType<typeof editorWorld>, path: string, viewRange?: number[], sessionId = 's1') {
  return world.view.execute({ sessionId, path, view_range: viewRange });
}

describe('view: text files', () => {
  it('Read entire file: every line prefixed with its 1-based number', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/three.txt', 'alpha\nbeta\ngamma\n');
    const outcome = await view(world, '/workspace/three.txt');
    expect(outcome.text).toBe('   1\talpha\n   2\tbeta\n   3\tgamma');
    expect(outcome.summary).toEqual({
      path: '/workspace/three.txt', type: 'text', size: 17, start_line: 1, end_line: 3, total_lines: 3, truncated: false,
    });
  });

  it('counts a last line without a newline and shows CRLF lines without the CR', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/crlf.txt', 'one\r\ntwo\r\nthree');
    const outcome = await view(world, 'crlf.txt');
    expect(outcome.text).toBe('   1\tone\n   2\ttwo\n   3\tthree');
    expect(outcome.summary.total_lines).toBe(3);
  });

  it('Read line range: [10, 20] of a 100-line file shows exactly lines 10..20', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/hundred.txt', numberedLines(100));
    const outcome = await view(world, '/workspace/hundred.txt', [10, 20]);
    const lines = outcome.text.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('  10\tline 10');
    expect(lines[10]).toBe('  20\tline 20');
    expect(outcome.summary).toMatchObject({ start_line: 10, end_line: 20, total_lines: 100 });
  });

  it('view_range end clamped to file length: [10, 100] of 42 lines shows 10..42', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/42.txt', numberedLines(42));
    const outcome = await view(world, '42.txt', [10, 100]);
    expect(outcome.text.split('\n')).toHaveLength(33);
    expect(outcome.text.split('\n').at(-1)).toBe('  42\tline 42');
    expect(outcome.summary).toMatchObject({ start_line: 10, end_line: 42, total_lines: 42 });
  });

  it('end -1 reads to the last line', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/42.txt', numberedLines(42));
    expect((await view(world, '42.txt', [40, -1])).text).toBe('  40\tline 40\n  41\tline 41\n  42\tline 42');
  });

  it('view_range start exceeds file length: [100, 200] of 42 lines is an error naming the total', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/42.txt', numberedLines(42));
    const error = await domainError(view(world, '42.txt', [100, 200]));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('start 100 is beyond the end of /workspace/42.txt, which has 42 lines (valid start: 1..42)');
  });

  it.each([
    [[0, 5]],
    [[-3, 5]],
    [[8, 3]],
  ])('Invalid view_range start: %j is an error describing the valid range', async (range) => {
    const world = editorWorld();
    world.fs.seedFile('/ws/42.txt', numberedLines(42));
    const error = await domainError(view(world, '42.txt', range));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('1 <= start <= end');
  });

  it('Long line truncation: a 5,000-character line is cut at 2,000 with the total', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/min.js', `${'x'.repeat(5000)}\nshort\n`);
    const [first, second] = (await view(world, 'min.js')).text.split('\n');
    expect(first).toBe(`   1\t${'x'.repeat(2000)}... [truncated, 5000 chars total]`);
    expect(second).toBe('   2\tshort');
  });

  it('counts characters, not UTF-16 units, when cutting a long line', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/emoji.txt', `${'😀'.repeat(2500)}\n`);
    expect((await view(world, 'emoji.txt')).text).toBe(`   1\t${'😀'.repeat(2000)}... [truncated, 2500 chars total]`);
  });

  it('shows whole a line of 2,000 characters that takes more UTF-16 units (and a CRLF line of 2,000 + \\r)', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/emoji.txt', `${'😀'.repeat(2000)}\n${'é😀'.repeat(1000)}\r\n${'x'.repeat(2001)}\n`);
    expect((await view(world, 'emoji.txt')).text).toBe(
      `   1\t${'😀'.repeat(2000)}\n   2\t${'é😀'.repeat(1000)}\n   3\t${'x'.repeat(2000)}... [truncated, 2001 chars total]`,
    );
  });

  it('Large file truncation: 5,000 lines without view_range show 2,000 and a note', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/big.txt', numberedLines(5000));
    const outcome = await view(world, 'big.txt');
    const lines = outcome.text.split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe('2000\tline 2000');
    expect(lines[2000]).toBe('Truncated: file has 5000 lines. Use view_range to read specific sections.');
    expect(outcome.summary).toMatchObject({ start_line: 1, end_line: 2000, total_lines: 5000, truncated: true });
  });

  it('Efficient range reading: [1, 10] of a ~9 MB file reads a small part of it', async () => {
    let counting: CountingFileSystem | undefined;
    const world = editorWorld({ files: (fs) => (counting = new CountingFileSystem(fs)).port });
    const content = numberedLines(205_000, 'a fairly ordinary line of text number ');
    world.fs.seedFile('/ws/huge.log', content);
    expect(content.length).toBeGreaterThan(9_000_000);
    expect(content.length).toBeLessThan(10 * 1024 * 1024);
    const outcome = await view(world, 'huge.log', [1, 10]);
    expect(outcome.text.split('\n')).toHaveLength(10);
    expect(outcome.summary.total_lines).toBeUndefined();
    expect(counting!.bytesRead).toBeLessThan(200 * 1024);
  });

  it('shows an empty file as such', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/empty.txt', '');
    const outcome = await view(world, 'empty.txt');
    expect(outcome.text).toBe('(empty file: /workspace/empty.txt)');
    expect(outcome.summary).toMatchObject({ total_lines: 0, truncated: false });
    expect((await domainError(view(world, 'empty.txt', [1, 1]))).message).toContain('is empty (0 lines)');
  });
});

describe('view: paths', () => {
  it('refuses a view_range on a directory instead of ignoring it', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/src/a.ts', 'a\n');
    const error = await domainError(view(world, 'src', [1, 10]));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: view_range applies to files; /workspace/src is a directory (view it without view_range)');
    expect((await view(world, 'src')).summary.type).toBe('directory');
  });

  it('Symlink followed: a link to a regular file shows the target contents', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/real.txt', 'target content\n');
    world.fs.seedSymlink('/ws/link.txt', 'real.txt');
    expect((await view(world, 'link.txt')).text).toBe('   1\ttarget content');
  });

  it('Relative path resolution: cwd /workspace/project + src/main.go reads /workspace/project/src/main.go', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/project/src/main.go', 'package main\n');
    await world.changeDirectory.execute({ sessionId: 's1', path: '/workspace/project' });
    const outcome = await view(world, 'src/main.go');
    expect(outcome.summary.path).toBe('/workspace/project/src/main.go');
    expect(outcome.text).toBe('   1\tpackage main');
  });

  it('File not found: NOT_FOUND names the namespace path', async () => {
    const error = await domainError(view(editorWorld(), 'missing.txt'));
    expect(error.toClientText()).toBe('NOT_FOUND: path not found: /workspace/missing.txt');
  });

  it('refuses a symlink out of the root with ACCESS_DENIED and no host path', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/escape', '/outside');
    const error = await domainError(view(world, 'escape/secret.txt'));
    expect(error.code).toBe('ACCESS_DENIED');
    expect(error.message).toBe('path resolves outside root boundary: /workspace/escape/secret.txt');
  });

  it('refuses .. above the root with ACCESS_DENIED', async () => {
    expect((await domainError(view(editorWorld(), '../../outside/secret.txt'))).code).toBe('ACCESS_DENIED');
  });

  it('needs view in the root allowlist', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ro/a.txt', 'a\n');
    expect((await view(world, '/readonly/a.txt')).text).toBe('   1\ta');
    const paths = new PathPolicy([makeRoot('workspace', '/ws', ['read_file'])]);
    const limited = new View(new Namespace(paths, new RootAccess(paths, toolPolicy())), world.sessions, world.fs, new NodeContentHasher(), world.settings);
    const error = await domainError(limited.execute({ sessionId: 's1', path: '/workspace/a.txt' }));
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool view not allowed on root workspace');
  });
});

describe('view: binary files and images', () => {
  it('Binary file detected: a message with a human size, no content', async () => {
    const world = editorWorld();
    const bytes = new Uint8Array(Math.round(2.4 * 1024 * 1024));
    bytes.set([0x7f, 0x45, 0x4c, 0x46, 0]);
    world.fs.seedFile('/ws/app', bytes);
    const outcome = await view(world, 'app');
    expect(outcome.text).toMatch(/^Binary file \(2\.4 MB\)/);
    expect(outcome.image).toBeUndefined();
    expect(outcome.summary).toEqual({ path: '/workspace/app', type: 'binary', size: bytes.length });
  });

  it.each([
    ['PNG file returned as ImageContent', 'logo.png', PNG, 'image/png'],
    ['JPEG file returned as ImageContent', 'photo.jpg', JPEG, 'image/jpeg'],
    ['GIF file returned as ImageContent', 'anim.gif', GIF, 'image/gif'],
    ['WebP file returned as ImageContent', 'pic.webp', WEBP, 'image/webp'],
    ['Image with wrong extension still detected', 'photo.dat', PNG, 'image/png'],
  ])('%s', async (_, name, bytes, mimeType) => {
    const world = editorWorld();
    world.fs.seedFile(`/ws/${name}`, bytes);
    const outcome = await view(world, name);
    expect(outcome.image).toEqual({ bytes, mimeType });
    expect(outcome.summary).toEqual({ path: `/workspace/${name}`, type: 'image', size: bytes.length, mime_type: mimeType });
  });

  it('SVG file detected by extension', async () => {
    const world = editorWorld();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    world.fs.seedFile('/ws/icon.SVG', svg);
    const outcome = await view(world, 'icon.SVG');
    expect(outcome.image?.mimeType).toBe('image/svg+xml');
    expect(new TextDecoder().decode(outcome.image?.bytes)).toBe(svg);
  });

  it('Image file exceeding size limit: FILE_TOO_LARGE', async () => {
    const world = editorWorld({ settings: { maxFileSize: 1024 } });
    const big = new Uint8Array(4096);
    big.set(PNG);
    world.fs.seedFile('/ws/big.png', big);
    const error = await domainError(view(world, 'big.png'));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toContain('4096 bytes');
    expect(error.message).toContain('1024 bytes');
  });

  it.each(['tool.exe', 'module.wasm'])('Unrecognized binary file still shows size message (%s)', async (name) => {
    const world = editorWorld();
    world.fs.seedFile(`/ws/${name}`, Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]));
    const outcome = await view(world, name);
    expect(outcome.text).toMatch(/^Binary file \(8 bytes\)/);
    expect(outcome.image).toBeUndefined();
  });

  it('File exceeds max size: a 50 MB file is refused with its size and the 10 MB limit', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/huge.bin', new Uint8Array(50 * 1024 * 1024));
    const error = await domainError(view(world, 'huge.bin'));
    expect(error.toClientText()).toBe(
      'FILE_TOO_LARGE: file too large: /workspace/huge.bin is 50.0 MB (52428800 bytes), over the max_file_size limit of 10.0 MB (10485760 bytes)',
    );
  });
});

describe('view: the gate', () => {
  it('a view lets the same session edit the file', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await view(world, 'a.txt', [1, 1]);
    await world.strReplace.execute({ sessionId: 's1', path: 'a.txt', old_str: 'hello', new_str: 'bye' });
    expect(world.fs.readText('/ws/a.txt')).toBe('bye\n');
  });

  it('a view through a link counts for the target', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/real.txt', 'hello\n');
    world.fs.seedSymlink('/ws/link.txt', 'real.txt');
    await view(world, 'link.txt');
    await world.strReplace.execute({ sessionId: 's1', path: 'real.txt', old_str: 'hello', new_str: 'bye' });
    expect(world.fs.readText('/ws/real.txt')).toBe('bye\n');
  });
});
