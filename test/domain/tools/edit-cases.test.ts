import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainError, editorWorld } from './editor-harness.js';

// The drift cases of issues 19 and 32 (built by scripts/edit-cases/cases.mjs; `node scripts/edit-cases.mjs
// --write` regenerates them and prints our result next to the reference server's).
interface EditCase {
  name: string;
  file: string;
  old_str: string;
  new_str: string;
  expect: 'edit' | 'no_match';
  expected: string;
  region: string[];
}

const CASES: EditCase[] = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'edit-cases.json'), 'utf8'));
/** Spaces and tabs at line ends are not compared: nobody reading the file sees them. */
const visible = (text: string) => text.replace(/[ \t]+(?=\r?\n|$)/g, '');

describe('str_replace on the drift cases', () => {
  it('has at least 30 cases, every kind of drift in it', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect(CASES.filter((c) => c.expect === 'no_match').length).toBeGreaterThan(0);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const world = editorWorld();
    world.fs.seedFile('/ws/case.txt', testCase.file);
    await world.view.execute({ sessionId: 's1', path: 'case.txt' });
    const call = world.strReplace.execute({ sessionId: 's1', path: 'case.txt', old_str: testCase.old_str, new_str: testCase.new_str });
    if (testCase.expect === 'edit') {
      const outcome = await call;
      expect(visible(world.fs.readText('/ws/case.txt')!)).toBe(visible(testCase.expected));
      // A CRLF file stays CRLF: every line break is the file's own.
      if (testCase.file.includes('\r\n')) expect(world.fs.readText('/ws/case.txt')!.replace(/\r\n/g, '')).not.toContain('\n');
      expect(outcome.result.replacements).toBe(1);
    } else {
      const error = await domainError(call);
      expect(error.code).toBe('NO_MATCH');
      for (const line of testCase.region) expect(error.message).toContain(line);
      expect(world.fs.readText('/ws/case.txt')).toBe(testCase.file);
    }
  });
});
