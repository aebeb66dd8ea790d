import fc from 'fast-check';

/**
 * A generated tree, as plain data so fast-check can print and shrink it. Link texts and path
 * arguments may hold the placeholders `$ROOT` (the root's host path), `$OUT` (a directory of canaries
 * outside the root) and `$BASE` (their common parent), which each run replaces by its own temp dir.
 */
export type TreeEntry =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string; readonly bytes: Uint8Array; readonly mode: number }
  | { readonly kind: 'link'; readonly path: string; readonly text: string }
  | { readonly kind: 'fifo'; readonly path: string };

export interface TreeSpec {
  readonly entries: readonly TreeEntry[];
  /** Also a directory `big` of BIG_LISTING files (kept out of `entries` so a failure prints short). */
  readonly big?: boolean;
}

/** A listing of >= 512 names: the Node adapter shares its lstats with a helper thread. */
export const BIG_LISTING = 520;

/** The entries of the tree, the big directory's included. */
export function allEntries(tree: TreeSpec): TreeEntry[] {
  if (!tree.big) return [...tree.entries];
  const big: TreeEntry[] = [{ kind: 'dir', path: 'big' }];
  for (let i = 0; i < BIG_LISTING; i += 1) big.push({ kind: 'file', path: `big/f${String(i).padStart(3, '0')}`, bytes: encodeText(`n${i}\n`), mode: 0o644 });
  return [...tree.entries.filter((entry) => entry.path !== 'big' && !entry.path.startsWith('big/')), ...big];
}

/** Our own work-file names: the Node adapter hides `.mcp-fs-<16 hex>.(tmp|lock)` from listings and scans. */
export const WORK_FILE_NAMES = ['.mcp-fs-0123456789abcdef.tmp', '.mcp-fs-0123456789abcdef.lock', '.mcp-fs-x.tmp'];

/** The small alphabet of names: dot names, spaces, one word in NFC and NFD, a 255-byte name, our prefix. */
export const NAMES = [
  'a',
  'b',
  'sub',
  'notes.txt',
  'data.bin',
  '.hidden',
  '.env',
  'with space',
  'trailing ',
  'caf\u00e9',
  'cafe\u0301',
  '\u6587\u4ef6.md',
  'L'.repeat(251) + '.txt',
  '-dash',
  '%2e%2e',
  // Ignore files (issue 19): what grep, glob, deep listings and file_list skip depends on them.
  '.gitignore',
  '.ignore',
  '.git',
  ...WORK_FILE_NAMES,
];

/** Ignore-file texts in git's syntax: names, anchors, negation, directory-only, `**`, a comment. */
const IGNORE_TEXTS = ['a\n', '*.bin\n!data.bin\n', 'sub/\n', '/notes.txt\n# comment\n', '**/b\n.hidden\n', '*\n!*.md\n'];

const LINE_WORDS = ['alpha', 'beta', 'needle', 'x', '', '  indent', 'caf\u00e9', 'tab\tsep', 'Needle', 'end;'];

/** Text (lines from a few words, LF or CRLF) or binary (with NULs) or empty. */
export const contentArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...LINE_WORDS), { maxLength: 12 }).chain((words) =>
    fc.constantFrom('\n', '\r\n').chain((eol) => fc.boolean().map((finalEol) => encodeText(words.join(eol) + (finalEol && words.length > 0 ? eol : ''))))) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 1500 }).map((lines) => encodeText(Array.from({ length: lines }, (_, i) => `row ${i} needle`).join('\n'))) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 1, arbitrary: fc.constantFrom(...IGNORE_TEXTS).map(encodeText) },
);

export function encodeText(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

interface EntryCommand {
  readonly parent: number;
  readonly name: string;
  readonly kind: 'dir' | 'file' | 'link' | 'fifo';
  readonly bytes: Uint8Array;
  readonly mode: number;
  readonly target: number;
  readonly linkText: (target: string, depth: number) => string;
}

const commandArb: fc.Arbitrary<EntryCommand> = fc
  .record({
    parent: fc.nat(),
    name: fc.constantFrom(...NAMES),
    kind: fc.constantFrom<EntryCommand['kind']>('dir', 'dir', 'file', 'file', 'file', 'link', 'link', 'fifo'),
    bytes: contentArb,
    mode: fc.constantFrom(0o644, 0o600, 0o755, 0o444),
    target: fc.nat(),
    choice: fc.nat({ max: 10 }),
  })
  .map(({ choice, ...rest }) => ({
    ...rest,
    linkText: (target: string, depth: number) => linkTextChoices(target, depth)[choice],
  }));

/** Link texts of every kind; `target` is an in-root path of the tree, `depth` the link's own depth. */
function linkTextChoices(target: string, depth: number): string[] {
  const up = '../'.repeat(depth);
  return [
    `${up}${target}`, // relative, in root
    `$ROOT/${target}`, // absolute, into the root
    '$OUT/canary.txt', // absolute, outside
    '$OUT', // a directory outside
    `${up}../outside/canary.txt`, // relative, out through the parent
    `${up}..`, // the parent of the root
    '$ROOT', // the root itself
    up === '' ? '.' : up.slice(0, -1), // the root, relatively
    'missing/nowhere', // dangling
    '$BASE/root-evil/canary.txt', // the look-alike sibling
    target, // a chain, or a loop when the target is the link itself
  ];
}

/** Builds a tree from entry commands: each one lands below a directory made by an earlier one. */
export function buildTree(commands: readonly EntryCommand[], big: boolean): TreeSpec {
  const dirs = [''];
  const paths: string[] = [];
  const taken = new Set<string>();
  const entries: TreeEntry[] = [];
  for (const command of commands) {
    const parent = dirs[command.parent % dirs.length];
    const path = parent === '' ? command.name : `${parent}/${command.name}`;
    if (taken.has(path)) continue;
    taken.add(path);
    const depth = parent === '' ? 0 : parent.split('/').length;
    if (command.kind === 'dir') {
      dirs.push(path);
      entries.push({ kind: 'dir', path });
    } else if (command.kind === 'file') {
      entries.push({ kind: 'file', path, bytes: command.bytes, mode: command.mode });
    } else if (command.kind === 'link') {
      const target = paths.length === 0 ? path : paths[command.target % paths.length];
      entries.push({ kind: 'link', path, text: command.linkText(target, depth) });
    } else {
      entries.push({ kind: 'fifo', path });
    }
    paths.push(path);
  }
  return big ? { entries, big } : { entries };
}

export const treeArb: fc.Arbitrary<TreeSpec> = fc
  .tuple(fc.array(commandArb, { maxLength: 24 }), fc.nat({ max: 24 }))
  .map(([commands, bigDie]) => buildTree(commands, bigDie === 24)); // shrinks towards no big directory

/** The paths `$PICK<n>` arguments choose from: every generated entry, and a few of the big directory's. */
export function picksOf(tree: TreeSpec): string[] {
  return [...tree.entries.map((entry) => entry.path), ...(tree.big ? ['big', 'big/f000', 'big/f511'] : [])];
}
