// The edit cases of issue 19: one edit each, drawn from the drift agents meet between what
// they read and what they send (tabs vs spaces, re-indented blocks, trailing spaces, CRLF files
// edited with LF text, a line changed meanwhile). Each snippet is written at an indentation depth
// and unit, so the file, old_str, new_str and the expected result are rendered from one source.
// `node scripts/edit-cases.mjs --write` regenerates test/fixtures/edit-cases.json; `npm run edit-cases` prints the table.

/**
 * [depth, text] lines; `edit` is the line the new_str changes, `added` a line it inserts after it;
 * `deeper`, for the drifts that ask for it, lines it inserts instead, one indented past every old_str line.
 */
const SNIPPETS = [
  {
    name: 'go',
    before: [[0, 'package main'], [0, ''], [0, 'func total(items []Item) int {']],
    body: [[1, 'sum := 0'], [1, 'for _, it := range items {'], [2, 'sum += it.Price'], [1, '}'], [1, 'return sum']],
    after: [[0, '}'], [0, '']],
    edit: { index: 2, text: 'sum += it.Price * it.Qty' },
    added: [2, 'count++'],
  },
  {
    name: 'python',
    before: [[0, 'class Cart:'], [1, 'def __init__(self):'], [2, 'self.items = []'], [0, '']],
    body: [[1, 'def total(self):'], [2, 'result = 0'], [2, 'for item in self.items:'], [3, 'result += item.price'], [2, 'return result']],
    after: [[0, ''], [0, 'cart = Cart()'], [0, '']],
    edit: { index: 3, text: 'result += item.price * item.qty' },
    added: [3, 'self.count += 1'],
    deeper: [[3, 'for i in range(3):'], [4, 'print(i)']],
  },
  {
    name: 'typescript',
    before: [[0, "import { Item } from './item';"], [0, ''], [0, 'export class Cart {']],
    body: [[1, 'total(): number {'], [2, 'let sum = 0;'], [2, 'for (const item of this.items) {'], [3, 'sum += item.price;'], [2, '}'], [2, 'return sum;'], [1, '}']],
    after: [[0, '}'], [0, '']],
    edit: { index: 3, text: 'sum += item.price * item.qty;' },
    added: [3, 'this.count++;'],
  },
  {
    name: 'yaml',
    before: [[0, 'services:'], [1, 'web:']],
    body: [[2, 'image: nginx:1.25'], [2, 'ports:'], [3, '- "80:80"'], [2, 'environment:'], [3, 'MODE: production']],
    after: [[1, 'db:'], [2, 'image: postgres:16'], [0, '']],
    edit: { index: 4, text: 'MODE: staging' },
    added: [3, 'DEBUG: "false"'],
    deeper: [[3, 'LOGGING:'], [4, 'level: debug']],
  },
];

/**
 * Each drift: how the file is written (unit, base indentation of the body, line ending, trailing
 * spaces), how the model wrote old_str/new_str, and what must happen (edit or a NO_MATCH that shows
 * the real lines).
 */
const DRIFTS = [
  { name: 'tabs in the file, spaces in old_str', file: { unit: '\t' }, model: { unit: '    ' } },
  { name: 'spaces in the file, tabs in old_str', file: { unit: '    ' }, model: { unit: '\t' } },
  { name: '2-space file, 4-space old_str', file: { unit: '  ' }, model: { unit: '    ' } },
  { name: 're-indented block: old_str from column 0', file: { unit: '    ' }, model: { unit: '    ', dedent: true } },
  { name: 'old_str indented one level too deep', file: { unit: '  ' }, model: { unit: '  ', extra: '  ' } },
  { name: 'trailing spaces in the file', file: { unit: '    ', trailing: '  ' }, model: { unit: '    ' } },
  { name: 'trailing spaces in old_str', file: { unit: '    ' }, model: { unit: '    ', trailing: ' ' } },
  { name: 'CRLF file, LF old_str', file: { unit: '    ', eol: '\r\n' }, model: { unit: '    ' } },
  { name: 'CRLF file, LF old_str, tabs vs spaces', file: { unit: '\t', eol: '\r\n' }, model: { unit: '  ' } },
  { name: 'a line changed meanwhile', file: { unit: '    ', changed: true }, model: { unit: '    ' }, expect: 'no_match' },
  // Issue 32: new_str lines deeper than any old_str line take the file's unit per level, never a mix
  // of tabs and spaces. YAML forbids tabs for indentation, so its file is spaces in every one.
  { name: 'tabs in the file, spaces in old_str, new_str deeper', file: { unit: '\t' }, model: { unit: '    ' }, deeper: true, only: ['python'] },
  { name: 'tabs in the file, 2-space old_str, new_str deeper', file: { unit: '\t' }, model: { unit: '  ' }, deeper: true, only: ['python'] },
  { name: 'spaces in the file, tabs in old_str, new_str deeper', file: { unit: '    ' }, model: { unit: '\t' }, deeper: true, only: ['python', 'yaml'] },
  { name: '2-space file, 4-space old_str, new_str deeper', file: { unit: '  ' }, model: { unit: '    ' }, deeper: true, only: ['python', 'yaml'] },
  { name: '4-space file, 2-space old_str, new_str deeper', file: { unit: '    ' }, model: { unit: '  ' }, deeper: true, only: ['python', 'yaml'] },
  { name: 're-indented block from column 0, new_str deeper', file: { unit: '  ' }, model: { unit: '    ', dedent: true }, deeper: true, only: ['python', 'yaml'] },
];

function render(lines, { unit, base = 0, extra = '', trailing = '', eol = '\n' }, shift = 0) {
  return lines.map(([depth, text]) => (text === '' ? '' : `${extra}${unit.repeat(Math.max(0, depth - shift + base))}${text}${trailing}`)).join(eol);
}

/** The body as the edit leaves it: the edited line changed and one line added after it. */
function edited(snippet, deeper = false) {
  const body = snippet.body.map((line, i) => (i === snippet.edit.index ? [line[0], snippet.edit.text] : line));
  body.splice(snippet.edit.index + 1, 0, ...(deeper ? snippet.deeper : [snippet.added]));
  return body;
}

export function buildCases() {
  const cases = [];
  for (const drift of DRIFTS) {
    for (const snippet of SNIPPETS.filter((candidate) => drift.only === undefined || drift.only.includes(candidate.name))) {
      const eol = drift.file.eol ?? '\n';
      const fileStyle = { unit: drift.file.unit, trailing: drift.file.trailing ?? '', eol };
      const body = drift.file.changed ? snippet.body.map((line, i) => (i === 0 ? [line[0], `${line[1]} // changed meanwhile`] : line)) : snippet.body;
      const fileBody = render(body, fileStyle);
      const file = [render(snippet.before, fileStyle), fileBody, render(snippet.after, fileStyle)].join(eol);
      const shift = drift.model.dedent ? snippet.body[0][0] : 0;
      const modelStyle = { unit: drift.model.unit, extra: drift.model.extra ?? '', trailing: drift.model.trailing ?? '' };
      const oldStr = render(snippet.body, modelStyle, shift);
      const newStr = render(edited(snippet, drift.deeper), modelStyle, shift);
      const expected = drift.expect === 'no_match' ? file : file.replace(fileBody, render(edited(snippet, drift.deeper), fileStyle));
      cases.push({
        name: `${drift.name} (${snippet.name})`,
        drift: drift.name,
        file,
        old_str: oldStr,
        new_str: newStr,
        expect: drift.expect ?? 'edit',
        expected,
        // The file's real lines for the edit: a NO_MATCH that quotes them lets the next call succeed.
        region: fileBody.split(eol).filter((line) => line.trim() !== '').map((line) => line.trimEnd()),
      });
    }
  }
  return cases;
}
