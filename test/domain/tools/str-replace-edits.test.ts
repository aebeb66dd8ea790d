import { jest } from '@jest/globals';
import type { StrReplaceInput } from '../../../src/domain/tools/str-replace.js';
import { domainError, editorWorld, type EditorWorld } from './editor-harness.js';

type Call = Omit<StrReplaceInput, 'sessionId'>;

async function seededAndViewed(content: string, path = 'a.txt'): Promise<EditorWorld> {
  const world = editorWorld();
  world.fs.seedFile(`/ws/${path}`, content);
  await world.view.execute({ sessionId: 's1', path });
  return world;
}

function replace(world: EditorWorld, input: Call, sessionId = 's1') {
  return world.strReplace.execute({ sessionId, ...input });
}

describe('str_replace with edits[]', () => {
  it('applies the edits in order, each to the text the previous left, in one write, with counts per edit', async () => {
    const world = await seededAndViewed('one two\nthree\nfour four\n');
    const outcome = await replace(world, {
      path: 'a.txt',
      edits: [{ old_str: 'one', new_str: 'ONE' }, { old_str: 'ONE two', new_str: 'first' }, { old_str: 'four', new_str: '4', replace_all: true }],
    });
    expect(world.fs.readText('/ws/a.txt')).toBe('first\nthree\n4 4\n');
    expect(outcome.result).toEqual({ path: '/workspace/a.txt', replacements: 4, replacements_per_edit: [1, 1, 2], size: 16, match: 'exact' });
    expect(outcome.text).toMatch(/^Edited \/workspace\/a\.txt: replaced 4 occurrences with 3 edits \(1, 1, 2\)\.\nSnippet \(lines 1-3\):\n   1\tfirst\n/);
  });

  it('all or nothing: a failing edit writes nothing and is named (NO_MATCH: edit 3 of 3)', async () => {
    const world = await seededAndViewed('alpha\nbeta\ngamma\n');
    const error = await domainError(replace(world, { path: 'a.txt', edits: [{ old_str: 'alpha', new_str: 'A' }, { old_str: 'beta', new_str: 'B' }, { old_str: 'delta' }] }));
    expect(error.code).toBe('NO_MATCH');
    expect(error.message).toMatch(/^edit 3 of 3: old_str not found in \/workspace\/a\.txt \(line numbers in the text as edits 1-2 left it\)/);
    expect(world.fs.readText('/ws/a.txt')).toBe('alpha\nbeta\ngamma\n');
  });

  it('an ambiguous edit is MULTIPLE_MATCHES naming the edit and its lines, and nothing is written', async () => {
    const world = await seededAndViewed('x\ny\nx\n');
    const error = await domainError(replace(world, { path: 'a.txt', edits: [{ old_str: 'y', new_str: 'Y' }, { old_str: 'x', new_str: 'X' }] }));
    expect(error.code).toBe('MULTIPLE_MATCHES');
    expect(error.message).toContain('edit 2 of 2: old_str occurs 2 times in /workspace/a.txt (starting on lines 1, 3)');
    expect(world.fs.readText('/ws/a.txt')).toBe('x\ny\nx\n');
  });

  it('refuses edits together with old_str, an empty edits list, more than 50 edits, and an empty old_str in one of them', async () => {
    const world = await seededAndViewed('a\n');
    for (const call of [
      { path: 'a.txt', old_str: 'a', edits: [{ old_str: 'a' }] },
      { path: 'a.txt', new_str: 'b', edits: [{ old_str: 'a' }] },
      { path: 'a.txt', edits: [] },
      { path: 'a.txt', edits: Array.from({ length: 51 }, () => ({ old_str: 'a', new_str: 'a' })) },
      { path: 'a.txt' },
    ] as Call[]) {
      expect((await domainError(replace(world, call))).code).toBe('INVALID_ARGUMENT');
    }
    expect((await domainError(replace(world, { path: 'a.txt', edits: [{ old_str: 'a' }, { old_str: '' }] }))).message).toMatch(/^edit 2 of 2: old_str must not be empty/);
    expect(world.fs.readText('/ws/a.txt')).toBe('a\n');
  });

  it('keeps CRLF endings and the gate applies as for one edit', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/w.txt', 'a\r\nb\r\n');
    expect((await domainError(replace(world, { path: 'w.txt', edits: [{ old_str: 'a', new_str: 'A' }] }))).code).toBe('FILE_NOT_VIEWED');
    await world.view.execute({ sessionId: 's1', path: 'w.txt' });
    await replace(world, { path: 'w.txt', edits: [{ old_str: 'a\nb', new_str: 'x\ny\nz' }] });
    expect(world.fs.readText('/ws/w.txt')).toBe('x\r\ny\r\nz\r\n');
  });
});

describe('str_replace whitespace tolerance and NO_MATCH help', () => {
  it('a drifted indentation is applied, re-indented, and said in the result and the text', async () => {
    const world = await seededAndViewed('def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n');
    const outcome = await replace(world, { path: 'a.txt', old_str: '    if x:\n        return 1', new_str: '    if x:\n        return 10' });
    expect(world.fs.readText('/ws/a.txt')).toBe('def f():\n\tif x:\n\t\treturn 10\n\treturn 2\n');
    expect(outcome.result.match).toBe('whitespace_tolerant');
    expect(outcome.text).toContain('old_str matched only with leading and trailing whitespace ignored (whitespace_tolerant); new_str was re-indented to the file.');
  });

  it('two drifted regions: MULTIPLE_MATCHES with their lines, nothing written', async () => {
    const world = await seededAndViewed('  a()\n  b()\nc\n    a()\n    b()\n');
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'a()\nb()', new_str: 'z()' }));
    expect(error.code).toBe('MULTIPLE_MATCHES');
    expect(error.message).toContain('matches 2 regions with leading and trailing whitespace ignored (starting on lines 1, 4)');
    expect(world.fs.readText('/ws/a.txt')).toBe('  a()\n  b()\nc\n    a()\n    b()\n');
  });

  it('NO_MATCH shows the most similar lines, numbered, with their range', async () => {
    const world = await seededAndViewed('import x\n\nfunction area(r) {\n  return 3.14 * r * r;\n}\n');
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'function area(r) {\n  return 3.1416 * r * r;\n}', new_str: '' }));
    expect(error.code).toBe('NO_MATCH');
    expect(error.message).toContain('The most similar region is lines 3-5 (');
    expect(error.message).toMatch(/copy old_str from it:\n   3\tfunction area\(r\) \{\n   4\t  return 3\.14 \* r \* r;\n   5\t\}$/);
  });

  it('NO_MATCH past the similarity bound still answers NO_MATCH, saying why no region is shown (issue 33)', async () => {
    const world = await seededAndViewed(Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n'));
    const started = Date.now();
    const error = await domainError(replace(world, { path: 'a.txt', old_str: 'y'.repeat(400_000), new_str: '' }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.code).toBe('NO_MATCH');
    expect(error.message).toContain('the file and old_str are too large to look for a similar region; view the file and copy the text exactly');
  });
});

describe('str_replace bounded whitespace-tolerant matching (issue 33)', () => {
  it('past the per-call line budget an edit that is not exact is refused, naming the limit, before any is applied', async () => {
    const content = `${Array(60_000).fill('a').join('\n')}\nend\n`;
    const world = await seededAndViewed(content);
    // The first edit goes through the file's 60,001 lines line by line; the second is exact; the third would go through them again.
    const edits = [{ old_str: ' end', new_str: 'END' }, { old_str: 'END', new_str: 'End' }, { old_str: '  End', new_str: 'y' }];
    const error = await domainError(replace(world, { path: 'a.txt', edits, dry_run: true }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(
      'edit 3 of 3: old_str is not in /workspace/a.txt exactly, and matching it line by line with whitespace ignored is limited to 100,000 file lines ' +
        'per call, all edits together (this one needs 60,001); copy old_str exactly from the file (view it), or split the edits over several calls',
    );
    expect(world.fs.readText('/ws/a.txt')).toBe(content);
    // The first two alone fit.
    const outcome = await replace(world, { path: 'a.txt', edits: edits.slice(0, 2), dry_run: true });
    expect(outcome.result).toMatchObject({ replacements: 2, match: 'whitespace_tolerant' });
  });
});

describe('str_replace dry_run', () => {
  it('writes nothing, leaves the view state alone, and returns the unified diff as result and text', async () => {
    const world = await seededAndViewed('l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n');
    const recorded = jest.spyOn(world.store, 'recordFingerprint');
    const outcome = await replace(world, { path: 'a.txt', old_str: 'l5', new_str: 'five', dry_run: true });
    expect(world.fs.readText('/ws/a.txt')).toBe('l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n');
    expect(recorded).not.toHaveBeenCalled();
    const diff = '--- a/workspace/a.txt\n+++ b/workspace/a.txt\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+five\n l6\n l7\n l8\n';
    expect(outcome.result).toEqual({ path: '/workspace/a.txt', replacements: 1, size: 26, match: 'exact', dry_run: true, diff });
    expect(outcome.text).toBe(`Dry run: nothing written. Would replace 1 occurrence in /workspace/a.txt.\n${diff}`);
    // The real call after it does what the dry run showed.
    await replace(world, { path: 'a.txt', old_str: 'l5', new_str: 'five' });
    expect(world.fs.readText('/ws/a.txt')).toBe('l1\nl2\nl3\nl4\nfive\nl6\nl7\nl8\n');
  });

  it('makes every check the real call makes: the gate, NO_MATCH, the size limit', async () => {
    const world = editorWorld({ settings: { maxFileSize: 8 } });
    world.fs.seedFile('/ws/a.txt', 'abc\n');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'abc', new_str: 'x', dry_run: true }))).code).toBe('FILE_NOT_VIEWED');
    await world.view.execute({ sessionId: 's1', path: 'a.txt' });
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'zz', dry_run: true }))).code).toBe('NO_MATCH');
    expect((await domainError(replace(world, { path: 'a.txt', old_str: 'abc', new_str: 'abcdefghij', dry_run: true }))).code).toBe('FILE_TOO_LARGE');
  });

  it('takes no file lock: a dry run succeeds while the file is locked by an edit in progress', async () => {
    const world = await seededAndViewed('a\n');
    const target = world.namespace.locate('str_replace', '/workspace/a.txt', '/');
    if (target.kind === 'roots') throw new Error('unreachable');
    const lock = await world.fs.lockFile(target.path);
    try {
      const outcome = await replace(world, { path: 'a.txt', old_str: 'a', new_str: 'b', dry_run: true });
      expect(outcome.result.dry_run).toBe(true);
    } finally {
      await lock.release();
    }
  });
});
