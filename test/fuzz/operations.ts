import fc from 'fast-check';
import type { WorkContext } from '../../src/domain/work-context.js';
import { SINCE_THE_START } from './journal.js';
import { NAMES } from './trees.js';
import { SESSION, type Tools } from './worlds.js';

/**
 * The operation table: one entry per tool, each with how to draw its arguments and which domain use
 * case it drives. Adding a tool (read_files, say) is one more entry here; the differential runner,
 * the concurrent mode and the replay pick it up from the table.
 */
export interface OperationSpec {
  readonly tool: string;
  /** How often it is drawn, relative to the others. */
  readonly weight: number;
  /** Writes to the tree (the concurrent mode counts them, and its writers must never write outside). */
  readonly writes: boolean;
  readonly args: fc.Arbitrary<Record<string, unknown>>;
  readonly run: (tools: Tools, args: Record<string, unknown>, work: WorkContext) => Promise<unknown>;
}

export interface Operation {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

// --- argument arbitraries ---

const segment = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('big', 'f007', 'f511') },
  { weight: 2, arbitrary: fc.constantFrom('..', '.', '', 'nope') },
);

/** Paths that try to get out or to confuse: parents, host paths, encodings, NUL, slashes, look-alikes. */
const HOSTILE = [
  '..',
  '../outside/canary.txt',
  '../../..',
  '$OUT/canary.txt',
  '$OUT',
  '$ROOT',
  '$ROOT/a',
  '$ROOT/../outside/canary.txt',
  '$BASE/root-evil/canary.txt',
  '$BASE/canary-top.txt',
  '%2e%2e/outside/canary.txt',
  '%2e%2e%2f%2e%2e',
  'a\0b',
  'notes.txt\0.png',
  'a/',
  'sub/',
  'sub//a',
  '//',
  '/',
  '.',
  '',
  'sub/../..',
  'sub/./a/../b',
  '\\..\\outside',
  '/etc/passwd',
  '~/x',
  'sub/a/../../../outside/notes.txt',
  // The Node world's journal directory (outside the root): its records must never be reachable.
  '$JOURNAL/records',
  '$ROOT/../../$JOURNAL',
];

/**
 * `$PICK<n>`: the n-th path of the run's tree (modulo its size), so that most calls meet something that
 * exists; n is small half the time, so that calls meet the same few paths (a view, then a str_replace).
 */
const picked = fc.tuple(fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 999 })), fc.constantFrom('', '', '', '', '/', '/..', '/x', '/notes.txt', '//')).map(([n, suffix]) => `$PICK${n}${suffix}`);

export const relativePath: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: picked },
  { weight: 5, arbitrary: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('/', '//', '/.', '/..', '/../..')).map(([a, b]) => a + b) },
);

/**
 * Where a writer may create things: no host path, since a root-scoped path is chroot-like (`/tmp/x` is
 * `tmp/x` in the root) and an in-root `tmp/mcp-fuzz-…` would later read as a leaked host path.
 */
const writablePath = relativePath.filter((path) => !/\$(ROOT|OUT|BASE|JOURNAL)/.test(path));
const rootName = fc.oneof({ weight: 20, arbitrary: fc.constant('workspace') }, { weight: 1, arbitrary: fc.constantFrom('nope', '', '../workspace', 'WORKSPACE') });
const writableRooted = { root: rootName, path: writablePath };

/** A namespace path (editor and repo tools): under /workspace, relative to the working directory, or hostile. */
const namespacePath: fc.Arbitrary<string> = fc.oneof(
  // Not a host path below /workspace: that names an in-root `tmp/...`, which would later read as a leaked host path.
  { weight: 6, arbitrary: relativePath.map((path) => (path.startsWith('$') && !path.startsWith('$PICK') ? path : `/workspace/${path}`)) },
  { weight: 3, arbitrary: relativePath },
  { weight: 1, arbitrary: fc.constantFrom('/', '/nope/a', '/workspace', '/workspace/../..', '/workspace/../workspace/a', '/..') },
);

const words = fc.constantFrom('alpha', 'beta', 'needle', 'x', 'caf\u00e9', '\n', 'end;', 'row 1', ' ', 'C4N4', 'Needle');
const text = fc.array(words, { maxLength: 8 }).map((parts) => parts.join(' '));
/** Mostly valid limits, sometimes out of range (the use case must refuse those the same way on both sides). */
const smallInt = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 1000, 2 ** 31) });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const session = fc.constant(SESSION);

const PATCHES = [
  '@@ -1 +1 @@\n-alpha\n+beta\n',
  '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+needle\n',
  '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n',
  '@@ -1 +0,0 @@\n-x\n',
  'not a patch',
  '@@ -5,1 +5,1 @@\n-row 4 needle\n+row 4 changed\n',
];

/**
 * Change ids (issue 20): `$CHANGE<n>` is the n-th newest change of the world's own journal (the two
 * worlds mint different ids for the same change, so each resolves the reference in its journal; see
 * expandChanges), mixed with ids that name no change of ours: well-formed, malformed, hostile.
 */
const changeRef = fc.nat({ max: 6 }).map((n) => `$CHANGE${n}`);
const bogusId = fc.constantFrom('zzzzzzzzzzzzzzzzz', SINCE_THE_START, 'nope', '', '../records/x', '0000000000000000a', '$CHANGE0.json');
const changeId = fc.oneof({ weight: 6, arbitrary: changeRef }, { weight: 1, arbitrary: bogusId });
/** How undo_changes picks: by ids, by path, since an id (the start, mostly: everything), or a wrong mix (refused alike). */
const undoSelector = fc.oneof(
  { weight: 4, arbitrary: fc.record({ ids: fc.array(changeId, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ root: rootName, path: relativePath }) },
  { weight: 2, arbitrary: fc.record({ since_id: fc.oneof({ weight: 2, arbitrary: fc.constant(SINCE_THE_START) }, { weight: 1, arbitrary: changeId }) }) },
  // Everything since the start, forced: after it, the root must be the seeded tree if every change came back.
  { weight: 2, arbitrary: fc.constant({ since_id: SINCE_THE_START, force: true }) },
  { weight: 1, arbitrary: fc.constantFrom({}, { path: 'a' }, { ids: ['$CHANGE0'], since_id: SINCE_THE_START }, { root: 'workspace', since_id: SINCE_THE_START }) },
);

// --- the table ---

type Run = OperationSpec['run'];
const op = (tool: string, weight: number, writes: boolean, args: Record<string, fc.Arbitrary<unknown>>, run: Run): OperationSpec => ({
  tool,
  weight,
  writes,
  // Optional arguments stay out of the record when undefined, like an omitted JSON property.
  args: fc.record(args).map((drawn) => Object.fromEntries(Object.entries(drawn).filter(([, value]) => value !== undefined))),
  run,
});
const rooted = { root: rootName, path: relativePath };

/* eslint-disable @typescript-eslint/no-explicit-any -- args are drawn to match each use case's input */
export const OPERATIONS: readonly OperationSpec[] = [
  op('list_roots', 1, false, {}, (t) => t.listRoots.execute()),
  op('list_folder', 4, false, {
    ...rooted,
    // Depth 1 mostly (the one-level fast path); deeper subtrees, their cap and the ignore rules now and then.
    depth: maybe(fc.constantFrom(1, 2, 3, 10, 0, 11)),
    max_entries: maybe(fc.constantFrom(1, 3, 1000, 0, 10001)),
    ignore: maybe(fc.constantFrom('gitignore', 'none', 'bogus')),
  }, (t, a, w) => t.listFolder.execute(a as any, w)),
  op('read_files', 3, false, {
    root: rootName,
    paths: fc.array(relativePath, { minLength: 0, maxLength: 4 }),
    offset_lines: maybe(smallInt),
    limit_lines: maybe(smallInt),
  }, (t, a, w) => t.readFiles.execute(a as any, w)),
  op('read_file', 5, false, {
    ...rooted,
    // One window or none mostly; both kinds at once now and then (refused alike).
    window: fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 2, arbitrary: fc.record({ offset_bytes: maybe(fc.integer({ min: 0, max: 40 })), limit_bytes: maybe(smallInt) }) },
      { weight: 2, arbitrary: fc.record({ offset_lines: maybe(smallInt), limit_lines: maybe(smallInt) }) },
      { weight: 1, arbitrary: fc.record({ offset_bytes: maybe(smallInt), limit_bytes: maybe(smallInt), offset_lines: maybe(smallInt), limit_lines: maybe(smallInt) }) },
    ),
  }, (t, a, w) => t.readFile.execute(flatten(a) as any, w)),
  op('write_file', 4, true, { ...writableRooted, content: text, mode: optional(fc.constantFrom('overwrite', 'append', 'create_only', 'bogus')) }, (t, a) => t.writeFile.execute(a as any)),
  op('remove_file', 2, true, rooted, (t, a) => t.removeFile.execute(a as any)),
  op('patch_file', 2, true, { ...writableRooted, patch: fc.constantFrom(...PATCHES) }, (t, a) => t.patchFile.execute(a as any)),
  op('create_folder', 2, true, writableRooted, (t, a) => t.createFolder.execute(a as any)),
  op('remove_folder', 1, true, rooted, (t, a, w) => t.removeFolder.execute(a as any, w)),
  op('stat_file', 3, false, rooted, (t, a) => t.statFile.execute(a as any)),
  op('hash_file', 2, false, { ...rooted, algorithm: fc.constantFrom('sha256', 'sha256', 'SHA1', 'md5', 'sha512', 'crc32') }, (t, a, w) => t.hashFile.execute(a as any, w)),
  op('permissions_file', 1, false, rooted, (t, a) => t.permissionsFile.execute(a as any)),
  op('copy', 2, true, { source_root: rootName, source_path: relativePath, dest_root: rootName, dest_path: writablePath }, (t, a, w) => t.copy.execute(a as any, w)),
  op('move', 2, true, { source_root: rootName, source_path: relativePath, dest_root: rootName, dest_path: writablePath }, (t, a, w) => t.move.execute(a as any, w)),
  op('grep', 3, false, {
    root: rootName,
    pattern: fc.constantFrom('needle', 'alpha|beta', '^x$', '(', 'caf\u00e9', '.', 'C4N4RY', 'row 1\\d'),
    path: optional(relativePath),
    glob_filter: maybe(fc.constantFrom('*.txt', '**/*', '*.{md,txt}', '[')),
    case_insensitive: maybe(fc.boolean()),
    context_lines: maybe(smallInt),
    max_results: maybe(smallInt),
    timeout_seconds: maybe(fc.constantFrom(1, 30, 0, -5, 100000)),
    max_depth: maybe(smallInt),
  }, (t, a, w) => t.grep.execute(a as any, w)),
  op('glob', 3, false, {
    root: rootName,
    // A glob pattern or a regex mostly; both or neither now and then (refused alike).
    matcher: fc.oneof(
      { weight: 4, arbitrary: fc.record({ pattern: fc.constantFrom('**/*.txt', '*', '**', '*.{md,txt}', '.*', '[', '**/f00*', 'sub/**', '**/*') }) },
      { weight: 2, arbitrary: fc.record({ regex: fc.constantFrom('.*\\.txt$', '^\\.', '(', 'a') }) },
      { weight: 1, arbitrary: fc.constantFrom({}, { pattern: '*', regex: '.' }) },
    ),
    path: optional(relativePath),
    max_results: maybe(smallInt),
    timeout_seconds: maybe(fc.constantFrom(1, 30, 0, 100000)),
    max_depth: maybe(smallInt),
    type_filter: maybe(fc.constantFrom('file', 'directory', 'symlink', 'all', 'bogus')),
  }, (t, a, w) => t.glob.execute(flatten(a) as any, w)),
  op('view', 4, false, {
    sessionId: session,
    path: namespacePath,
    view_range: maybe(fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: -1, max: 8 })) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -2, max: 8 }), fc.integer({ min: -2, max: 8 })) },
    )),
  }, (t, a) => t.view.execute(a as any)),
  op('str_replace', 3, true, { sessionId: session, path: namespacePath, old_str: words, new_str: optional(text), replace_all: optional(fc.boolean()) }, (t, a) =>
    t.strReplace.execute(a as any)),
  op('create_file', 3, true, { sessionId: session, path: namespacePath, content: text }, (t, a) => t.createFile.execute(a as any)),
  op('change_directory', 1, false, { sessionId: session, path: namespacePath }, (t, a) => t.changeDirectory.execute(a as any)),
  op('file_read', 3, false, { sessionId: session, path: namespacePath }, (t, a) => t.fileRead.execute(a as any)),
  op('file_write', 3, true, { sessionId: session, path: namespacePath, content: text }, (t, a) => t.fileWrite.execute(a as any)),
  op('file_list', 2, false, { sessionId: session, path: optional(namespacePath), pattern: optional(fc.constantFrom('*', '*.txt', '.*', '[')) }, (t, a) =>
    t.fileList.execute(a as any)),
  op('read_resource', 1, false, rooted, (t, a) => t.readResource.read(a.root as string, a.path as string)),
  op('list_changes', 2, false, {
    root: maybe(rootName),
    path: maybe(relativePath),
    session: maybe(fc.constantFrom('this', 'all')),
    limit: maybe(fc.constantFrom(1, 2, 50, 500)),
    before_id: maybe(changeId),
    diff: maybe(fc.boolean()),
  }, (t, a) => t.listChanges.execute(a as any, SESSION)),
  op('undo_changes', 3, true, { selector: undoSelector, dry_run: maybe(fc.boolean()), force: maybe(fc.boolean()) }, (t, a) =>
    t.undoChanges.execute(flatten(a) as any, SESSION)),
];
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Moves a grouped argument (`window`, `matcher`, `selector`: drawn together so that they mostly make sense) up into the arguments. */
function flatten(args: Record<string, unknown>): Record<string, unknown> {
  const { window, matcher, selector, ...rest } = args as { window?: object; matcher?: object; selector?: object };
  return { ...rest, ...window, ...matcher, ...selector };
}

const BY_TOOL = new Map(OPERATIONS.map((spec) => [spec.tool, spec]));

export function operationSpec(tool: string): OperationSpec {
  const spec = BY_TOOL.get(tool);
  if (!spec) throw new Error(`no operation for tool ${tool}`);
  return spec;
}

export const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  ...OPERATIONS.map((spec) => ({ weight: spec.weight, arbitrary: spec.args.map((args) => ({ tool: spec.tool, args })) })),
);

export function operationsArb(maxLength: number): fc.Arbitrary<Operation[]> {
  return fc.array(operationArb, { minLength: 1, maxLength, size: 'max' });
}
