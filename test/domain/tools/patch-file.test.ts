import { domainError, fileToolsWorld } from './file-tools-harness.js';

const diff = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('PatchFile', () => {
  it('E2E-022: applies a unified diff and reports the hunks', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/code.go', 'package main\n\nfunc greet() string {\n\treturn "Hello"\n}\n');
    const patch = diff('--- a/code.go', '+++ b/code.go', '@@ -3,3 +3,3 @@', ' func greet() string {', '-\treturn "Hello"', '+\treturn "Hi"', ' }');
    expect(await patchFile.execute({ root: 'workspace', path: 'code.go', patch })).toEqual({
      path: 'code.go',
      hunks_applied: 1,
      created: false,
      hunks: [{ stated_line: 3, applied_line: 3, offset: 0 }],
    });
    expect(fs.readText('/ws/code.go')).toBe('package main\n\nfunc greet() string {\n\treturn "Hi"\n}\n');
  });

  it('E2E-023: a mismatching hunk fails and leaves the file byte-identical', async () => {
    const { fs, patchFile } = fileToolsWorld();
    const original = new TextEncoder().encode('line A\nline B\nline C\n');
    fs.seedFile('/ws/code.go', original, { permissions: 0o600 });
    const patch = diff('@@ -1,3 +1,3 @@', ' line A', '-line X', '+line Y', ' line C');
    const error = await domainError(patchFile.execute({ root: 'workspace', path: 'code.go', patch }));
    expect(error.code).toBe('PATCH_FAILED');
    expect(error.message).toMatch(/^patch failed: hunk 1 does not match at line 1: .* \(root: workspace\)$/);
    expect(fs.readBytes('/ws/code.go')).toEqual(original);
    expect(fs.permissionsOf('/ws/code.go')).toBe(0o600);
    expect(fs.list('/ws')).toEqual(['code.go']);
  });

  it('reports where each hunk landed: a thin-context hunk stated at line 1 found at line 4,900, one stated at 4,000 found at 10', async () => {
    const { fs, patchFile } = fileToolsWorld();
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    lines[9] = 'early';
    lines[4899] = 'late';
    fs.seedFile('/ws/long.txt', `${lines.join('\n')}\n`);
    const far = await patchFile.execute({ root: 'workspace', path: 'long.txt', patch: diff('@@ -1 +1 @@', '-late', '+LATE') });
    expect(far.hunks).toEqual([{ stated_line: 1, applied_line: 4900, offset: 4899 }]);
    const back = await patchFile.execute({ root: 'workspace', path: 'long.txt', patch: diff('@@ -4000 +4000 @@', '-early', '+EARLY') });
    expect(back.hunks).toEqual([{ stated_line: 4000, applied_line: 10, offset: -3990 }]);
  });

  it('writes nothing when the second of two hunks fails (NFR-015)', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/f.txt', 'a\nb\nc\nd\n');
    const patch = diff('@@ -1 +1 @@', '-a', '+A', '@@ -4 +4 @@', '-zzz', '+Z');
    const error = await domainError(patchFile.execute({ root: 'workspace', path: 'f.txt', patch }));
    expect(error.message).toContain('hunk 2 does not match at line 4');
    expect(fs.readText('/ws/f.txt')).toBe('a\nb\nc\nd\n');
  });

  it('E2E-024: patching a missing file creates it, with its parents', async () => {
    const { fs, patchFile } = fileToolsWorld();
    const patch = diff('--- /dev/null', '+++ b/docs/new_file.txt', '@@ -0,0 +1,2 @@', '+first line', '+second line');
    expect(await patchFile.execute({ root: 'workspace', path: 'docs/new_file.txt', patch })).toEqual({
      path: 'docs/new_file.txt',
      hunks_applied: 1,
      created: true,
      hunks: [{ stated_line: 1, applied_line: 1, offset: 0 }],
    });
    expect(fs.readText('/ws/docs/new_file.txt')).toBe('first line\nsecond line\n');
  });

  it('keeps the permissions of the patched file', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/run.sh', 'echo old\n', { permissions: 0o755 });
    await patchFile.execute({ root: 'workspace', path: 'run.sh', patch: diff('@@ -1 +1 @@', '-echo old', '+echo new') });
    expect(fs.readText('/ws/run.sh')).toBe('echo new\n');
    expect(fs.permissionsOf('/ws/run.sh')).toBe(0o755);
  });

  it('keeps CRLF line endings and a missing final newline', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/win.txt', 'one\r\ntwo\r\nthree');
    await patchFile.execute({ root: 'workspace', path: 'win.txt', patch: diff('@@ -1,2 +1,2 @@', ' one', '-two', '+TWO') });
    expect(fs.readText('/ws/win.txt')).toBe('one\r\nTWO\r\nthree');
  });

  it('patches a file through an in-root link, leaving the link in place', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/real.txt', 'a\n');
    fs.seedSymlink('/ws/alias.txt', 'real.txt');
    await patchFile.execute({ root: 'workspace', path: 'alias.txt', patch: diff('@@ -1 +1 @@', '-a', '+b') });
    expect(fs.readText('/ws/real.txt')).toBe('b\n');
    expect(fs.kindOf('/ws/alias.txt')).toBe('symlink');
  });

  it('rejects a patch without hunks before touching the file system', async () => {
    const { fs, patchFile } = fileToolsWorld();
    const error = await domainError(patchFile.execute({ root: 'workspace', path: 'new.txt', patch: 'not a diff' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/^invalid patch: no hunks found; .* \(root: workspace\)$/);
    expect(fs.exists('/ws/new.txt')).toBe(false);
  });

  it('rejects a patch for several files', async () => {
    const { patchFile } = fileToolsWorld();
    const patch = diff('--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '--- a/y', '+++ b/y', '@@ -1 +1 @@', '-a', '+b');
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'x', patch }))).message).toContain('changes 2 files');
  });

  it('refuses a directory', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedDirectory('/ws/dir');
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'dir', patch: diff('@@ -0,0 +1 @@', '+x') }))).toClientText()).toBe(
      'IS_A_DIRECTORY: path is a directory: dir; patch_file patches files (root: workspace)',
    );
  });

  it('refuses a binary file', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/blob.bin', new Uint8Array([1, 0, 2, 10]));
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'blob.bin', patch: diff('@@ -0,0 +1 @@', '+x') }))).toClientText()).toBe(
      'INVALID_ARGUMENT: cannot patch a binary file: blob.bin (root: workspace)',
    );
  });

  it('refuses a file that is not UTF-8 rather than corrupting it', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'latin1.txt', patch: diff('@@ -0,0 +1 @@', '+x') }))).message).toBe(
      'cannot patch a file that is not valid UTF-8: latin1.txt (root: workspace)',
    );
  });

  it('refuses a file larger than max_file_size', async () => {
    const { fs, patchFile } = fileToolsWorld({ maxFileSize: 10 });
    fs.seedFile('/ws/big.txt', 'x'.repeat(20));
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'big.txt', patch: diff('@@ -0,0 +1 @@', '+x') }))).toClientText()).toBe(
      'FILE_TOO_LARGE: file too large to patch (size: 20 bytes, limit: 10 bytes): big.txt (root: workspace)',
    );
  });

  it('a failed write leaves the original content', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/f.txt', 'a\n');
    fs.failNextWrite('/ws/f.txt');
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'f.txt', patch: diff('@@ -1 +1 @@', '-a', '+b') }))).code).toBe('IO_ERROR');
    expect(fs.readText('/ws/f.txt')).toBe('a\n');
  });

  it('E2E-064: never patches through a link that leaves the root', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside/secret.txt');
    const patch = diff('@@ -1 +1 @@', '-TOP SECRET', '+pwned');
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'escape', patch }))).code).toBe('ACCESS_DENIED');
    expect(fs.readText('/outside/secret.txt')).toBe('TOP SECRET\n');
  });

  it('E2E-066 / E2E-072: allowlist and root are checked before the patch is parsed', async () => {
    const { patchFile } = fileToolsWorld();
    expect((await domainError(patchFile.execute({ root: 'readonly', path: 'a', patch: 'junk' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool patch_file not allowed on root readonly',
    );
    expect((await domainError(patchFile.execute({ root: 'nonexistent', path: 'a', patch: 'junk' }))).toClientText()).toBe(
      'UNKNOWN_ROOT: unknown root: nonexistent',
    );
  });
});
