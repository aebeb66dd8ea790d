import { applySpans, locate } from '../../src/domain/text-match.js';

/** str_replace's placement of one whitespace-tolerant edit. */
function edit(content: string, oldStr: string, newStr: string): string {
  const located = locate(content, { oldStr, newStr, replaceAll: false });
  if (located.found !== 'spans') throw new Error(`no single match: ${located.found}`);
  expect(located.kind).toBe('whitespace_tolerant');
  return applySpans(content, located.spans);
}

const mixedIndentation = (text: string) => text.split('\n').filter((line) => /^[ \t]*/.exec(line)![0].match(/ \t|\t /));

describe('re-indenting new_str where a whitespace-tolerant match lands (issue 32)', () => {
  it('tab-indented Python, old_str in spaces: a line deeper than any old_str line gets one tab per level, never tabs and spaces', () => {
    const file = 'def f():\n\tif x:\n\t\tpass\n';
    const out = edit(file, '    if x:\n        pass', '    if x:\n        for i in range(3):\n            print(i)');
    expect(out).toBe('def f():\n\tif x:\n\t\tfor i in range(3):\n\t\t\tprint(i)\n');
    expect(mixedIndentation(out)).toEqual([]);
  });

  it('a 2-space file edited with 4-space text: print(i) lands one 2-space level under its for, not at 10', () => {
    const file = 'def f():\n  if x:\n    y = 1\n';
    const out = edit(file, '    if x:\n        y = 1', '    if x:\n        for i in range(3):\n            print(i)');
    expect(out).toBe('def f():\n  if x:\n    for i in range(3):\n      print(i)\n');
  });

  it('a line shallower than every old_str line steps back in the file unit', () => {
    const file = 'class A:\n\tdef f(self):\n\t\treturn 1\n';
    const out = edit(file, '        return 1', '        return 1\n    def g(self):\n        return 2');
    expect(out).toBe('class A:\n\tdef f(self):\n\t\treturn 1\n\tdef g(self):\n\t\treturn 2\n');
  });

  it('a one-line old_str takes the file unit from the rest of the file', () => {
    const file = 'a:\n  b:\n    c: 1\n  d: 2\n';
    const out = edit(file, '    d: 2', '    d:\n        e: 2\n        f: 3');
    expect(out).toBe('a:\n  b:\n    c: 1\n  d:\n    e: 2\n    f: 3\n');
  });

  it('a line indented like an old_str line keeps that line\'s indentation in the file as it is (aligned continuations survive)', () => {
    const file = 'def f():\n    call(a,\n         b)\n';
    const out = edit(file, '  call(a,\n       b)', '  call(a,\n       c)\n  done()');
    expect(out).toBe('def f():\n    call(a,\n         c)\n    done()\n');
  });

  it('never mixes tabs and spaces in a line, whatever the model and file units', () => {
    const units = ['\t', '  ', '    '];
    for (const fileUnit of units) {
      for (const modelUnit of units.filter((unit) => unit !== fileUnit)) {
        const file = ['def f():', `${fileUnit}if x:`, `${fileUnit.repeat(2)}y = 1`, ''].join('\n');
        const oldStr = [`${modelUnit}if x:`, `${modelUnit.repeat(2)}y = 1`].join('\n');
        const newStr = [`${modelUnit}if x:`, `${modelUnit.repeat(2)}while y:`, `${modelUnit.repeat(3)}for i in z:`, `${modelUnit.repeat(4)}print(i)`].join('\n');
        const out = edit(file, oldStr, newStr);
        expect([fileUnit, modelUnit, mixedIndentation(out)]).toEqual([fileUnit, modelUnit, []]);
        expect(out).toBe(['def f():', `${fileUnit}if x:`, `${fileUnit.repeat(2)}while y:`, `${fileUnit.repeat(3)}for i in z:`, `${fileUnit.repeat(4)}print(i)`, ''].join('\n'));
      }
    }
  });
});
