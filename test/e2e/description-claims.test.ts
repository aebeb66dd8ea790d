import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { formatSize } from '../../src/domain/tools/file-text.js';
import { humanSize } from '../../src/domain/tools/editor-files.js';
import { useTestServer } from '../support/live-server.js';

/*
 * Keeps every tool's description true, for the tools that exist now and any added later: the test reads
 * what tools/list says, so a new tool is checked the moment it is registered, with nothing to add here.
 *
 * 1. Error codes. Every error code a description names (an ALL_CAPS_WITH_UNDERSCORES word, or a one-word
 *    code of the ErrorCode union such as CONFLICT) must be triggered for that tool by some test. The
 *    evidence is looked for in the test sources, per `it(...)` block: a block counts for (tool, code) when
 *    its text holds the code (asserted: `toBe('NOT_FOUND')`, `/^TOOL_NOT_ALLOWED/`, a full error text) and
 *    names the tool: quoted ('view'), as the domain use case's identifier (createFile, strReplace), or by
 *    being in the tool's own test file (create-file.test.ts). This is a heuristic, chosen over a hand-kept
 *    registry because a registry drifts the same way descriptions do; its failure message says which
 *    (tool, code) has no test, and the fix is a test, or a description that stops promising the code.
 * 2. Limits. The server here runs with limits no default has (777,777 bytes of full read, 3,333,333 of
 *    file size, ...). A description or input-schema text that shows a default value (10MB, 1MB, 4MB,
 *    "default 100", "at most 600") was written by hand and did not follow the configuration; one that
 *    names a setting with a size next to it must show the configured size.
 * 3. "Undoable". With the journal on, every writing tool but undo_changes says "Undoable (undo_changes)". One
 *    that names when not ("; not ...") declares `undoable` and `reason` in its output schema, and some test
 *    block names the tool and asserts the result's `undoable: false` (or `'partly'`): the claim of an
 *    exception is backed by a test that makes one happen, by the same heuristic as the error codes.
 */

const SETTINGS = {
  maxFullReadSize: 777_777,
  maxFileSize: 3_333_333,
  maxResultBytes: 2_222_222,
  search: { defaultTimeoutSeconds: 77, maxTimeoutSeconds: 777, defaultMaxResults: 42, maxResultsLimit: 4242 },
};
const SIZE_SETTINGS: Record<string, number> = {
  max_full_read_size: SETTINGS.maxFullReadSize,
  max_file_size: SETTINGS.maxFileSize,
  max_result_bytes: SETTINGS.maxResultBytes,
};
/** How the defaults render (formatSize and humanSize), and the default search numbers as descriptions word them. */
const DEFAULT_RENDERINGS = ['10MB', '10.0 MB', '1MB', '1.0 MB', '4MB', '4.0 MB', 'default 100,', 'at most 10000', 'default 300,', 'at most 600'];

/**
 * Codes a description mentions without promising them for its own calls: list_roots explains that *other*
 * tools answer TOOL_NOT_ALLOWED on a root that excludes them.
 */
const MENTIONS_NOT_PROMISES: Record<string, readonly string[]> = { list_roots: ['TOOL_NOT_ALLOWED'] };

const ERROR_CODES = new Set([...readFileSync(join('src', 'domain', 'errors.ts'), 'utf8').split('export type ErrorCode')[1].split(';')[0].matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]));

/**
 * Codes that another branch adds to the code base (str_replace's NO_MATCH / MULTIPLE_MATCHES, from the
 * agent-workflow issue). Tolerated only while the code is not in ErrorCode: once it is, a test must trigger it.
 */
const ARRIVING_WITH_ANOTHER_BRANCH: Record<string, readonly string[]> = { str_replace: ['NO_MATCH', 'MULTIPLE_MATCHES'] };

function codesNamedIn(text: string): string[] {
  const words = new Set(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []);
  for (const code of ERROR_CODES) if (new RegExp(`\\b${code}\\b`).test(text)) words.add(code);
  return [...words].sort();
}

function testSources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testSources(path);
    return entry.name.endsWith('.ts') && entry.name !== 'description-claims.test.ts' ? [{ file: path, text: readFileSync(path, 'utf8') }] : [];
  });
}

/** Each `it(` / `test(` block of a file with the file's name, so a tool's own test file counts as naming it. */
function testBlocks(): { file: string; text: string }[] {
  return testSources('test').flatMap(({ file, text }) => text.split(/\n\s*(?=(?:it|test)(?:\.each)?\s*[(`])/).slice(1).map((block) => ({ file, text: block })));
}

function camelCase(tool: string): string {
  return tool.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function namesTool(block: { file: string; text: string }, tool: string): boolean {
  if (basename(block.file).startsWith(`${tool.replace(/_/g, '-')}.`)) return true;
  return new RegExp(`['"\`]${tool}['"\`]|\\b${camelCase(tool)}\\b`).test(block.text);
}

function parseSize(text: string): number {
  const match = /^([\d.]+) ?(B|KB|MB|GB|bytes)$/.exec(text)!;
  const unit = { B: 1, bytes: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[match[2]]!;
  return Number(match[1]) * unit;
}

describe('descriptions keep to what is true (every tool in tools/list)', () => {
  const live = useTestServer({ settings: SETTINGS });
  let tools: Tool[];

  beforeAll(async () => {
    tools = (await live.client.listTools()).tools;
  });

  it('names only error codes that some test triggers for that tool', () => {
    const blocks = testBlocks();
    const missing: string[] = [];
    let checked = 0;
    for (const tool of tools) {
      const text = `${tool.description} ${JSON.stringify(tool.inputSchema)}`;
      for (const code of codesNamedIn(text)) {
        if (MENTIONS_NOT_PROMISES[tool.name]?.includes(code)) continue;
        if (ARRIVING_WITH_ANOTHER_BRANCH[tool.name]?.includes(code) && !ERROR_CODES.has(code)) continue;
        checked += 1;
        if (!blocks.some((block) => block.text.includes(code) && namesTool(block, tool.name))) missing.push(`${tool.name}: ${code}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('the scan finds a code a test asserts, and not one that no test asserts', () => {
    const blocks = testBlocks();
    expect(blocks.some((block) => block.text.includes('FILE_TOO_LARGE') && namesTool(block, 'create_file'))).toBe(true);
    expect(blocks.some((block) => block.text.includes('NOT_A_REAL_CODE_ANYWHERE') && namesTool(block, 'view'))).toBe(false);
    expect(codesNamedIn('FILE_NOT_VIEWED, CONFLICT or NOT_FOUND; the ROOT, RE2 and JSON are not codes')).toEqual(['CONFLICT', 'FILE_NOT_VIEWED', 'NOT_FOUND']);
  });

  it('says "Undoable" on every writing tool, and backs each "not ..." with an output field and a test that triggers it', () => {
    const blocks = testBlocks();
    const wrong: string[] = [];
    let exceptions = 0;
    for (const tool of tools) {
      if (tool.annotations?.readOnlyHint || tool.name === 'undo_changes') continue;
      const claim = /Undoable \(undo_changes\)(; not [^(]+\(result: undoable false, reason\))?\./.exec(tool.description ?? '');
      if (claim === null) {
        wrong.push(`${tool.name}: no "Undoable (undo_changes)" claim`);
        continue;
      }
      if (claim[1] === undefined) continue;
      exceptions += 1;
      const fields = Object.keys((tool.outputSchema?.properties ?? {}) as Record<string, unknown>);
      if (!fields.includes('undoable') || !fields.includes('reason')) wrong.push(`${tool.name}: no undoable/reason in its output schema`);
      if (!blocks.some((block) => /undoable: (false|'partly')/.test(block.text) && namesTool(block, tool.name))) wrong.push(`${tool.name}: no test shows undoable false`);
    }
    expect(wrong).toEqual([]);
    expect(exceptions).toBeGreaterThanOrEqual(9);
  });

  it('shows the configured limits, never a default written by hand', () => {
    const wrong: string[] = [];
    for (const tool of tools) {
      const text = `${tool.description} ${JSON.stringify(tool.inputSchema)}`;
      for (const rendering of DEFAULT_RENDERINGS) {
        // "2.1MB" holds "1MB": a rendering counts only where no digit or point comes before it.
        if (new RegExp(`(?<![\\d.])${rendering.replace(/\./g, '\\.')}`).test(text)) wrong.push(`${tool.name}: shows the default "${rendering}"`);
      }
      const named = [
        ...[...text.matchAll(/(max_[a-z_]+) \(([\d.]+ ?(?:B|KB|MB|GB|bytes))\b/g)].map((m) => [m[1], m[2]]),
        ...[...text.matchAll(/([\d.]+ ?(?:B|KB|MB|GB|bytes)) \((max_[a-z_]+)\b/g)].map((m) => [m[2], m[1]]),
      ];
      for (const [setting, shown] of named) {
        const configured = SIZE_SETTINGS[setting];
        if (configured === undefined) continue;
        if (shown !== formatSize(configured) && shown !== humanSize(configured)) wrong.push(`${tool.name}: ${setting} shown as ${shown}, configured ${configured} bytes`);
        else if (Math.abs(parseSize(shown) - configured) > configured * 0.05) wrong.push(`${tool.name}: ${setting} ${shown} is far from ${configured}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('states the configured search defaults and ceilings in the grep and glob schemas', () => {
    for (const name of ['grep', 'glob']) {
      const properties = tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, { description?: string }>;
      expect(properties.max_results.description).toContain(`default ${SETTINGS.search.defaultMaxResults}, at most ${SETTINGS.search.maxResultsLimit}`);
      expect(properties.timeout_seconds.description).toContain(`default ${SETTINGS.search.defaultTimeoutSeconds}, at most ${SETTINGS.search.maxTimeoutSeconds}`);
    }
  });
});
