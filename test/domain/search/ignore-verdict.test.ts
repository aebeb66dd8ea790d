import { jest } from '@jest/globals';
import ignore from 'ignore';
import { patternVerdict } from '../../../src/domain/search/ignore-verdict.js';

// patternVerdict reaches past ignore's test() (which caches every path it is asked about) to its patterns'
// own matching. It must give test()'s verdict for every path whose parent folders the rules do not ignore
// (IgnoreRules judges the parents once per directory, from test() itself).
const RULE_FILES = [
  'node_modules/\ndist/\n/build\n*.log\n!keep.log\n**/coverage/**\n*.tmp\ncache/\n*.swp\n/b9/c49/generated-*',
  '*\n!*/\n!*.ts\n',
  'a/**/b\n!a/x/b\n\\#hash\n\\!bang\nspace\\ \n[abc].md\n?.txt\ndocs/*.md\n!docs/keep.md\n',
  '/*\n!/src\nsrc/*\n!src/lib\n*.TS\n',
  'build/\n!build/\n**/gen\ndeep/**/x/',
];
const NAMES = ['node_modules', 'dist', 'build', 'a.log', 'keep.log', 'coverage', 'x.tmp', 'cache', 'b', 'x', 'gen', '#hash', '!bang', 'space ', 'a.md', 'd.md', 'q.txt', 'qq.txt', 'keep.md', 'm.ts', 'M.TS', 'lib', 'src', 'docs', 'deep', 'generated-1', 'b9', 'c49', 'a'];

/** Paths of up to three levels, files and directories (a trailing '/'), in the order a walk meets them. */
function paths(): string[] {
  const out: string[] = [];
  for (const first of NAMES) {
    out.push(first, `${first}/`);
    for (const second of NAMES.slice(0, 12)) {
      out.push(`${first}/${second}`, `${first}/${second}/`);
      for (const third of ['b', 'x', 'keep.md', 'gen', 'generated-1']) out.push(`${first}/${second}/${third}`, `${first}/${second}/${third}/`);
    }
  }
  return out;
}

test('patternVerdict agrees with ignore\'s test() on every path whose parents the rules do not ignore', () => {
  let compared = 0;
  for (const text of RULE_FILES) {
    const reference = ignore().add(text);
    const fast = ignore().add(text);
    for (const path of paths()) {
      const parent = path.slice(0, path.replace(/\/$/, '').lastIndexOf('/') + 1);
      if (parent !== '' && reference.test(parent).ignored) continue;
      expect({ path, verdict: patternVerdict(fast, path) }).toEqual({ path, verdict: reference.test(path) });
      compared += 1;
    }
  }
  expect(compared).toBeGreaterThan(3000);
});

test('patternVerdict does not go through test() (which would keep every path judged)', () => {
  const rules = ignore().add('*.log\n!keep.log\n');
  const viaTest = jest.spyOn(rules, 'test');
  expect(patternVerdict(rules, 'deep/dir/a.log')).toMatchObject({ ignored: true, unignored: false });
  expect(patternVerdict(rules, 'deep/dir/keep.log')).toMatchObject({ ignored: false, unignored: true });
  expect(patternVerdict(rules, 'deep/dir/a.txt')).toEqual({ ignored: false, unignored: false });
  expect(viaTest).not.toHaveBeenCalled();
});
