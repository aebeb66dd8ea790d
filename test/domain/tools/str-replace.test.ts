import { CountingFileSystem, domainError, editorWorld, type EditorWorld } from './editor-harness.js';

async function viewed(world: EditorWorld, path: string, sessionId = 's1') {
  await world.view.execute({ sessionId, path });
}

function replace(world: EditorWorld, input: { path: string; old_str: string; new_str?: string; replace_all?: boolean }, sessionId = 's1') {
  return world.strReplace.execute({ sessionId, ...input });
}

describe('str_replace', () => {
  it('Successful unique replacement: replaced, with numbered context around the change', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/main.go', 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n\n// end\n// more\n');
    await viewed(world, 'main.go');
    const outcome = await replace(world, { path: 'main.go', old_str: 'fmt.Println("hi")', new_str: 'fmt.Println("hello")' });
    expect(world.fs.readText('/ws/main.go')).toContain('\tfmt.Println("hello")\n');
    expect(outcome.result).toEqual({ path: '/workspace/main.go', replacements: 1, size: world.fs.readBytes('/ws/main.go')!.length, match: 'exact' });
    expect(outcome.text).toBe(
      'Edited /workspace/main.go: replaced 1 occurrence.\nSnippet (lines 2-10):\n' +
        '   2\t\n   3\timport "fmt"\n   4\t\n   5\tfunc main() {\n   6\t\tfmt.Println("hello")\n   7\t}\n   8\t\n   9\t// end\n  10\t// more',
    );
  });

  it('the snippet stops at the last line of the file', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'a\nb\nc\n');
    await viewed(world, 'a.txt');
    const outcome = await replace(world, { path: 'a.txt', old_str: 'c', new_str: 'C' });
    expect(outcome.text).toBe('Edited /workspace/a.txt: replaced 1 occurrence.\nSnippet (lines 1-3):\n   1\ta\n   2\tb\n   3\tC');
  });

  it('String not found: an error saying so', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'alpha\n');
    await viewed(world, 'a.txt');
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'beta', new_str: 'x' }));
    expect(error.code).toBe('NO_MATCH');
    expect(error.message).toMatch(/^old_str not found in \/workspace\/a\.txt/);
  });

  it('Ambiguous match: the error gives the count and asks for a unique match', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'x = 1\nx = 1\nx = 1\n');
    await viewed(world, 'a.txt');
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2' }));
    expect(error.code).toBe('MULTIPLE_MATCHES');
    expect(error.message).toContain('old_str occurs 3 times in /workspace/a.txt (starting on lines 1, 2, 3); it must be unique');
    expect(world.fs.readText('/ws/a.txt')).toBe('x = 1\nx = 1\nx = 1\n');
  });

  it.each([
    ['omitted', undefined],
    ['empty', ''],
  ])('Deletion (%s new_str): old_str is removed', async (_, newStr) => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'keep\nremove me\nkeep\n');
    await viewed(world, 'a.txt');
    await replace(world, { path: 'a.txt', old_str: 'remove me\n', new_str: newStr });
    expect(world.fs.readText('/ws/a.txt')).toBe('keep\nkeep\n');
  });

  it('Replace all occurrences: 15 replaced and counted', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'foo bar\n'.repeat(15));
    await viewed(world, 'a.txt');
    const outcome = await replace(world, { path: 'a.txt', old_str: 'foo', new_str: 'baz', replace_all: true });
    expect(world.fs.readText('/ws/a.txt')).toBe('baz bar\n'.repeat(15));
    expect(outcome.result.replacements).toBe(15);
    expect(outcome.text).toMatch(/^Edited \/workspace\/a\.txt: replaced 15 occurrences\./);
  });

  it('Replace all with no match: not found', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'foo\n');
    await viewed(world, 'a.txt');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'nope', new_str: 'x', replace_all: true }))).message).toContain('old_str not found');
  });

  it('replacement text is literal: $&, $1, $$ and $` are written as typed', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'price: X\n');
    await viewed(world, 'a.txt');
    await replace(world, { path: 'a.txt', old_str: 'X', new_str: "$& $1 $$ $` $'" });
    expect(world.fs.readText('/ws/a.txt')).toBe("price: $& $1 $$ $` $'\n");
  });

  it('CRLF preserved: an old_str written with \\n matches and the file stays CRLF', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/win.txt', 'one\r\ntwo\r\nthree\r\n');
    await viewed(world, 'win.txt');
    await replace(world, { path: 'win.txt', old_str: 'one\ntwo', new_str: 'uno\ndos\nmas' });
    expect(world.fs.readText('/ws/win.txt')).toBe('uno\r\ndos\r\nmas\r\nthree\r\n');
  });

  it('an LF file stays LF when new_str carries CRLF', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/unix.txt', 'a\nb\n');
    await viewed(world, 'unix.txt');
    await replace(world, { path: 'unix.txt', old_str: 'a', new_str: 'x\r\ny' });
    expect(world.fs.readText('/ws/unix.txt')).toBe('x\ny\nb\n');
  });

  it('Permissions preserved: a 0755 file keeps mode 0755', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/run.sh', '#!/bin/sh\necho hi\n', { permissions: 0o755 });
    await viewed(world, 'run.sh');
    await replace(world, { path: 'run.sh', old_str: 'hi', new_str: 'ho' });
    expect(world.fs.permissionsOf('/ws/run.sh')).toBe(0o755);
    expect(world.fs.readText('/ws/run.sh')).toBe('#!/bin/sh\necho ho\n');
  });

  it('File not found: NOT_FOUND', async () => {
    expect((await domainError(replace(editorWorld(), { path: 'missing.txt', old_str: 'a' }))).toClientText()).toBe(
      'NOT_FOUND: file not found: /workspace/missing.txt',
    );
  });

  it('Path scoping enforced: outside the roots is ACCESS_DENIED', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/escape.txt', '/outside/secret.txt');
    expect((await domainError(replace(world, { path: '../outside/secret.txt', old_str: 'TOP' }))).code).toBe('ACCESS_DENIED');
    expect((await domainError(replace(world, { path: 'escape.txt', old_str: 'TOP' }))).code).toBe('ACCESS_DENIED');
    expect(world.fs.readText('/outside/secret.txt')).toBe('TOP SECRET\n');
  });

  it('needs str_replace in the root allowlist', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ro/a.txt', 'a\n');
    expect((await domainError(replace(world, { path: '/readonly/a.txt', old_str: 'a' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool str_replace not allowed on root readonly',
    );
  });

  it('refuses an empty old_str, a directory, and a file that is not UTF-8', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/dir');
    world.fs.seedFile('/ws/latin1.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await viewed(world, 'latin1.txt');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: '' }))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(replace(world, { path: 'dir', old_str: 'a' }))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(replace(world, { path: '/', old_str: 'a' }))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(replace(world, { path: 'latin1.txt', old_str: 'caf' }))).message).toContain('not UTF-8 text');
  });

  it('refuses an edit whose result exceeds max_file_size and leaves the file alone', async () => {
    const world = editorWorld({ settings: { maxFileSize: 64 } });
    world.fs.seedFile('/ws/a.txt', 'small\n');
    await viewed(world, 'a.txt');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'small', new_str: 'x'.repeat(100) }))).code).toBe('FILE_TOO_LARGE');
    expect(world.fs.readText('/ws/a.txt')).toBe('small\n');
  });
});

describe('str_replace: the view-before-edit gate', () => {
  it('Edit rejected without prior view: FILE_NOT_VIEWED before the file is read', async () => {
    let counting: CountingFileSystem | undefined;
    const world = editorWorld({ files: (fs) => (counting = new CountingFileSystem(fs)).port });
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'hello', new_str: 'bye' }));
    expect(error.code).toBe('FILE_NOT_VIEWED');
    expect(error.message).toContain('/workspace/a.txt');
    expect(counting!.bytesRead).toBe(0);
    expect(world.fs.readText('/ws/a.txt')).toBe('hello\n');
  });

  it('a view in another session does not count', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await viewed(world, 'a.txt', 'other');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'hello', new_str: 'bye' }))).code).toBe('FILE_NOT_VIEWED');
  });

  it('FILE_CHANGED_SINCE_VIEW after an outside same-size rewrite in the same mtime tick', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await viewed(world, 'a.txt');
    const mtime = world.fs.modifiedAtOf('/ws/a.txt');
    world.fs.seedFile('/ws/a.txt', 'HELLO\n', { modifiedAt: mtime });
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'HELLO', new_str: 'bye' }));
    expect(error.code).toBe('FILE_CHANGED_SINCE_VIEW');
    expect(error.message).toContain('view it again');
    expect(world.fs.readText('/ws/a.txt')).toBe('HELLO\n');
  });

  it('FILE_CHANGED_SINCE_VIEW after a partial view of a large file and an outside write', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/big.txt', 'x'.repeat(2 * 1024 * 1024) + '\nend\n');
    await world.view.execute({ sessionId: 's1', path: 'big.txt', view_range: [2, 2] });
    world.fs.seedFile('/ws/big.txt', 'x'.repeat(2 * 1024 * 1024) + '\nend!\n');
    expect((await domainError(replace(world, { path: 'big.txt', old_str: 'end', new_str: 'fin' }))).code).toBe('FILE_CHANGED_SINCE_VIEW');
  });

  it("the session's own edits count as a fresh view", async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'one two\n');
    await viewed(world, 'a.txt');
    await replace(world, { path: 'a.txt', old_str: 'one', new_str: '1' });
    await replace(world, { path: 'a.txt', old_str: 'two', new_str: '2' });
    expect(world.fs.readText('/ws/a.txt')).toBe('1 2\n');
  });

  it('a fresh view after a change opens the file again', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await viewed(world, 'a.txt');
    world.fs.seedFile('/ws/a.txt', 'hello world\n');
    await viewed(world, 'a.txt');
    await replace(world, { path: 'a.txt', old_str: 'world', new_str: 'there' });
    expect(world.fs.readText('/ws/a.txt')).toBe('hello there\n');
  });

  it('parallel edits of one file in one session both land (edits of a file run one at a time)', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'one two three\n');
    await viewed(world, 'a.txt');
    await Promise.all([
      replace(world, { path: 'a.txt', old_str: 'one', new_str: '1' }),
      replace(world, { path: 'a.txt', old_str: 'two', new_str: '2' }),
      replace(world, { path: 'a.txt', old_str: 'three', new_str: '3' }),
    ]);
    expect(world.fs.readText('/ws/a.txt')).toBe('1 2 3\n');
  });

  it('of two sessions editing the same viewed version at once, the second is told the file changed', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'one two\n');
    await viewed(world, 'a.txt', 's1');
    await viewed(world, 'a.txt', 's2');
    const [first, second] = await Promise.allSettled([
      replace(world, { path: 'a.txt', old_str: 'one', new_str: '1' }, 's1'),
      replace(world, { path: 'a.txt', old_str: 'two', new_str: '2' }, 's2'),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason.code).toBe('FILE_CHANGED_SINCE_VIEW');
    expect(world.fs.readText('/ws/a.txt')).toBe('1 two\n');
  });

  it('no view needed when require_view_before_edit is off', async () => {
    const world = editorWorld({ settings: { requireViewBeforeEdit: false } });
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await replace(world, { path: 'a.txt', old_str: 'hello', new_str: 'bye' });
    expect(world.fs.readText('/ws/a.txt')).toBe('bye\n');
  });

  it('session state dropped at session end: the view no longer counts', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await viewed(world, 'a.txt');
    await world.store.close('s1');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'hello', new_str: 'bye' }))).code).toBe('FILE_NOT_VIEWED');
  });
});
