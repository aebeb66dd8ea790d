// Runs the edit cases of issue 19 (scripts/edit-cases/cases.mjs) through our str_replace and the
// reference server's edit_file (@modelcontextprotocol/server-filesystem), each over stdio with the
// SDK client on its own copy of every file, and prints how many of each drift succeed, give a usable
// NO_MATCH, or fail. `--write` also regenerates test/fixtures/edit-cases.json (the unit test's cases).
//   npm run build && node scripts/edit-cases.mjs [--write]
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildCases } from './edit-cases/cases.mjs';
import { OUR_MAIN, REFERENCE_MAIN, stdioClient } from './bench/servers.mjs';

const cases = buildCases();
if (process.argv.includes('--write')) {
  const fixture = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'test', 'fixtures', 'edit-cases.json');
  mkdirSync(join(fixture, '..'), { recursive: true });
  writeFileSync(fixture, `${JSON.stringify(cases, null, 1)}\n`);
  console.log(`wrote ${cases.length} cases to ${fixture}`);
}

/** Equal but for spaces and tabs at line ends, which no reader of the file can see. */
const sameText = (a, b) => a.replace(/[ \t]+(?=\r?\n|$)/g, '') === b.replace(/[ \t]+(?=\r?\n|$)/g, '');

const lf = (text) => text.replace(/\r\n/g, '\n');

/**
 * success: the file is as intended. usable: an error that quotes the file's real lines, so the next
 * call can succeed. Failures: eol (the right edit, but every CRLF in the file became LF), wrong (other
 * text written than intended), unhelpful (an error that does not show where the text is).
 */
function classify(testCase, isError, text, after) {
  if (!isError) {
    if (testCase.expect === 'edit' && sameText(after, testCase.expected)) return 'success';
    return testCase.expect === 'edit' && sameText(lf(after), lf(testCase.expected)) ? 'eol' : 'wrong';
  }
  if (after !== testCase.file) return 'wrong';
  return testCase.region.every((line) => text.includes(line)) ? 'usable' : 'unhelpful';
}

const text = (result) => (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text).join('\n');

async function runOurs(dir) {
  const server = await stdioClient([OUR_MAIN, '--stdio', dir]);
  const root = basename(dir);
  const outcomes = [];
  try {
    for (const [i, testCase] of cases.entries()) {
      const path = `/${root}/case${i}.txt`;
      await server.client.callTool({ name: 'view', arguments: { path } });
      const result = await server.client.callTool({ name: 'str_replace', arguments: { path, old_str: testCase.old_str, new_str: testCase.new_str } });
      outcomes.push(classify(testCase, result.isError === true, text(result), readFileSync(join(dir, `case${i}.txt`), 'utf8')));
    }
  } finally {
    await server.close();
  }
  return outcomes;
}

async function runReference(dir) {
  const server = await stdioClient([REFERENCE_MAIN, dir]);
  const outcomes = [];
  try {
    for (const [i, testCase] of cases.entries()) {
      const path = join(dir, `case${i}.txt`);
      const result = await server.client.callTool({ name: 'edit_file', arguments: { path, edits: [{ oldText: testCase.old_str, newText: testCase.new_str }] } });
      outcomes.push(classify(testCase, result.isError === true, text(result), readFileSync(path, 'utf8')));
    }
  } finally {
    await server.close();
  }
  return outcomes;
}

function seeded() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'edit-cases-')));
  cases.forEach((testCase, i) => writeFileSync(join(dir, `case${i}.txt`), testCase.file));
  return dir;
}

const KINDS = ['success', 'usable', 'eol', 'wrong', 'unhelpful'];
const dirs = [seeded(), seeded()];
try {
  const ours = await runOurs(dirs[0]);
  const reference = await runReference(dirs[1]);
  const drifts = [...new Set(cases.map((testCase) => testCase.drift))];
  const count = (outcomes, indexes, kind) => indexes.filter((i) => outcomes[i] === kind).length;
  const cell = (outcomes, indexes) => KINDS.map((kind) => count(outcomes, indexes, kind)).join(' / ');
  const heading = 'success / usable error / failed: CRLF lost, wrong text, unhelpful error';
  console.log(`| Drift (cases) | expected | ours (str_replace): ${heading} | reference (edit_file): ${heading} |`);
  console.log('|---|---|---|---|');
  for (const drift of drifts) {
    const indexes = cases.flatMap((testCase, i) => (testCase.drift === drift ? [i] : []));
    console.log(`| ${drift} (${indexes.length}) | ${cases[indexes[0]].expect === 'edit' ? 'edit' : 'NO_MATCH'} | ${cell(ours, indexes)} | ${cell(reference, indexes)} |`);
  }
  const all = cases.map((_, i) => i);
  console.log(`| **all (${cases.length})** | | **${cell(ours, all)}** | **${cell(reference, all)}** |`);
  // Ours must get every case right: a wrong text, a lost CRLF or an unhelpful error fails the run.
  const failed = all.filter((i) => !['success', 'usable'].includes(ours[i]));
  if (failed.length > 0) {
    console.error(`str_replace failed ${failed.length} case(s): ${failed.map((i) => `${cases[i].name}: ${ours[i]}`).join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
