import type { Ignore } from 'ignore';
import { compareCodePoints } from '../code-point-order.js';
import { patternVerdict } from './ignore-verdict.js';
import { errors } from '../errors.js';
import { type IgnoreRuleCache, MAX_IGNORE_FILE_BYTES, type RuleFileText } from './ignore-rule-cache.js';
import type { EntryKind, FileSystemPort } from '../ports/file-system.port.js';
import type { DirectoryFile, DirectoryFiles } from '../ports/tree-scan-types.js';
import { displayPath, type RootPath } from '../roots.js';

export const IGNORE_MODES = ['gitignore', 'none'] as const;
export type IgnoreMode = (typeof IGNORE_MODES)[number];

/** The rule files of one directory, highest precedence first (ripgrep's order: .ignore over .gitignore). */
export const IGNORE_FILE_NAMES = ['.ignore', '.gitignore'] as const;
export { MAX_IGNORE_FILE_BYTES } from './ignore-rule-cache.js';

/** `ignore` as the call gave it, else the operator's default (`search.ignore`, itself `gitignore` by default). */
export function ignoreMode(value: string | undefined, fallback: IgnoreMode | undefined): IgnoreMode {
  if (value === undefined) return fallback ?? 'gitignore';
  if ((IGNORE_MODES as readonly string[]).includes(value)) return value as IgnoreMode;
  throw errors.invalidArgument(`invalid ignore: ${value} (valid: ${IGNORE_MODES.join(', ')})`);
}

/** One rule file, and how an entry's path below the start reads relative to the file's directory. */
interface RuleSource {
  readonly rules: Ignore;
  readonly relative: (pathBelowStart: string) => string;
}

/**
 * Issue 19: which entries below a walk's start the ignore rules pass over, with git's own matching
 * (negation, anchoring, `**`, directory-only patterns) from the `ignore` package. Pure: it is fed the
 * rule files (the adapter reads those inside the walk, `collectAncestorRules` those above it) and only
 * judges paths. `.git/` is never entered.
 *
 * Precedence as in git and ripgrep: a deeper directory's files over a shallower one's, `.ignore` over
 * `.gitignore` in one directory, `.git/info/exclude` last; within one file the last matching pattern
 * decides. Each entry is matched by its own path (a directory that matched was not entered, so nothing
 * below it is asked about), which is how a start the call names explicitly is walked even when a rule
 * above it ignores it (ripgrep does the same).
 *
 * Security: the rules can only make a walk pass over entries; they never add one or lead anywhere.
 */
export class IgnoreRules {
  /** Rule sources that apply to a directory's entries, by the directory's path below the start. */
  private readonly chains = new Map<string, readonly RuleSource[]>();
  /** Entries passed over, for the result's `ignored`. */
  ignored = 0;
  /** Their paths below the start, for a walk cut short (ignoredBefore). */
  private readonly passedOver: string[] = [];

  private constructor(
    private readonly above: readonly RuleSource[],
    private readonly cache: IgnoreRuleCache,
  ) {
    this.chains.set('', above);
  }

  /** Rules for a walk of `start`: those above it (see collectAncestorRules), then what the walk finds. */
  static above(start: AncestorRules, cache: IgnoreRuleCache): IgnoreRules {
    return new IgnoreRules(start.sources, cache);
  }

  /** What a tree scan needs to apply the rules: the rule files of each directory entered, and the judgement. */
  scanOptions(): { readonly prune: IgnoreRules['prune']; readonly directoryFiles: DirectoryFiles } {
    return { prune: this.prune, directoryFiles: { names: IGNORE_FILE_NAMES, maxBytes: MAX_IGNORE_FILE_BYTES, found: (directory, files) => this.enter(directory, files) } };
  }

  /** TreeScanOptions.prune: an ignored entry, counted. */
  readonly prune = (pathBelowStart: string, kind: EntryKind): boolean => {
    if (!this.judge(pathBelowStart, kind)) return false;
    this.passOver(pathBelowStart);
    return true;
  };

  /** Counts an entry prune() passed over, its verdict kept from an earlier walk under the same rules (see key). */
  readonly passOver = (pathBelowStart: string): void => {
    this.ignored += 1;
    this.passedOver.push(pathBelowStart);
  };

  /**
   * What prune's verdicts depend on besides the start and the rule files found below it: the compiled
   * rule files above the start (one instance per version of a file, see IgnoreRuleCache).
   */
  get key(): readonly unknown[] {
    return this.above.map((source) => source.rules);
  }

  /**
   * `ignored` of a walk cut short at `stop` (a path below the start, reached and not used): only the
   * entries passed over before the walk order reaches it. A scan judges entries ahead of what it
   * reports, and how far ahead is the adapter's business: the count must not depend on it.
   */
  ignoredBefore(stop: string): number {
    return this.passedOver.reduce((count, path) => (compareWalkOrder(path, stop) < 0 ? count + 1 : count), 0);
  }

  /** The rule files of a directory (below the start, '' for the start itself), before any of its entries is judged. */
  enter(directory: string, files: readonly DirectoryFile[]): void {
    const parent = directory === '' ? this.above : this.chains.get(parentOf(directory)) ?? this.above;
    const own = files.map((file) => ({ rules: this.cache.rules({ text: decode(file.contents), version: file.version, shown: join(directory, file.name) }), relative: below(directory) }));
    this.chains.set(directory, own.length === 0 ? parent : [...sortByName(own, files), ...parent]);
  }

  /**
   * Git's rule (dir.c, prep_exclude): a folder the whole stack of rule files ignores hides everything below
   * it (the walk does not enter it); an entry of a folder that was entered is judged by its own path alone,
   * so a shallower file's `logs/` does not hide sub/logs/x.txt once sub/.gitignore says `!logs/`. The
   * package's test() would also walk each path's parents in every file on its own (and keep every path it
   * judged, 41% of the time of a 100,000-entry walk in a profile); patternVerdict does neither.
   */
  private judge(pathBelowStart: string, kind: EntryKind): boolean {
    const slash = pathBelowStart.lastIndexOf('/');
    if (kind === 'directory' && pathBelowStart.slice(slash + 1) === '.git') return true;
    const chain = this.chains.get(slash < 0 ? '' : pathBelowStart.slice(0, slash)) ?? this.above;
    for (const source of chain) {
      // A directory is tested with a trailing slash, so `build/` (directory-only) matches it and not a file.
      const verdict = patternVerdict(source.rules, source.relative(pathBelowStart) + (kind === 'directory' ? '/' : ''));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

/** The rules for a walk of `start` under `mode`, or undefined when nothing is to be ignored. */
export async function ignoreRulesFor(fs: FileSystemPort, start: RootPath, mode: IgnoreMode, cache: IgnoreRuleCache): Promise<IgnoreRules | undefined> {
  return mode === 'gitignore' ? IgnoreRules.above(await collectAncestorRules(fs, start, cache), cache) : undefined;
}

/**
 * The rules for the entries of one directory listed on its own (file_list): those above it and its own
 * rule files, read through the port as collectAncestorRules reads them; judge each entry with `prune(name, kind)`.
 */
export async function directoryRulesFor(fs: FileSystemPort, directory: RootPath, cache: IgnoreRuleCache): Promise<IgnoreRules> {
  const rules = IgnoreRules.above(await collectAncestorRules(fs, directory, cache), cache);
  const files: DirectoryFile[] = [];
  for (const name of IGNORE_FILE_NAMES) {
    const file = await readRuleFile(fs, { root: directory.root, segments: [...directory.segments, name] }, cache);
    if (file !== undefined) files.push({ name, contents: file.contents, version: file.version });
  }
  rules.enter('', files);
  return rules;
}

/** The rules above a walk's start, gathered by collectAncestorRules. */
export interface AncestorRules {
  readonly sources: readonly RuleSource[];
}

/**
 * The rule files that apply to a walk of `start` from above it: each directory's from the start's
 * parent up to the root, then the root's `.git/info/exclude`. The start itself is never judged: the call
 * named it, and it is searched even when a rule ignores it (as `rg PATTERN node_modules/foo`).
 *
 * Security: every file is read through the port, confined to the root like any read; a file that is
 * not a regular file of at most MAX_IGNORE_FILE_BYTES (a link, a directory, a FIFO) is not read.
 */
export async function collectAncestorRules(fs: FileSystemPort, start: RootPath, cache: IgnoreRuleCache): Promise<AncestorRules> {
  const sources: RuleSource[] = [];
  for (let depth = start.segments.length - 1; depth >= 0; depth -= 1) {
    const base = { root: start.root, segments: start.segments.slice(0, depth) };
    const startBelowBase = start.segments.slice(depth).join('/');
    for (const name of IGNORE_FILE_NAMES) {
      const file = await readRuleFile(fs, { root: start.root, segments: [...base.segments, name] }, cache);
      if (file !== undefined) addUnlessStartIgnored(sources, cache, file, startBelowBase);
    }
  }
  const exclude = await readRuleFile(fs, { root: start.root, segments: ['.git', 'info', 'exclude'] }, cache);
  if (exclude !== undefined) addUnlessStartIgnored(sources, cache, exclude, start.segments.join('/'));
  return { sources };
}

function addUnlessStartIgnored(sources: RuleSource[], cache: IgnoreRuleCache, file: ReadRuleFile, startBelowBase: string): void {
  const rules = cache.rules(file);
  if (startBelowBase === '' || !rules.ignores(`${startBelowBase}/`)) {
    const prefix = startBelowBase === '' ? '' : `${startBelowBase}/`;
    sources.push({ rules, relative: (pathBelowStart) => prefix + pathBelowStart });
    return;
  }
  // The file ignores the start the call named (or a folder above it). Matched from the file's folder, every
  // path below the start would be ignored with it; its patterns without a slash (`*.map`, `node_modules/`)
  // match a name at any depth, so they still apply, matched from the start. Its anchored ones are dropped.
  sources.push({ rules: cache.rules(file, 'unanchored', isUnanchored), relative: (pathBelowStart) => pathBelowStart });
}

/** A pattern line with no '/' but a trailing one: it matches a name at any depth below its folder. */
function isUnanchored(line: string): boolean {
  const pattern = line.startsWith('!') ? line.slice(1) : line;
  return !pattern.replace(/\/+\s*$/, '').includes('/');
}

/** A rule file read through the port: its bytes, its text and the version read. */
interface ReadRuleFile extends RuleFileText {
  readonly contents: Uint8Array;
}

async function readRuleFile(fs: FileSystemPort, path: RootPath, cache: IgnoreRuleCache): Promise<ReadRuleFile | undefined> {
  try {
    const stat = await fs.stat(path);
    if (stat?.kind !== 'file') return undefined;
    if (stat.size > MAX_IGNORE_FILE_BYTES) {
      cache.tooLarge(displayPath(path), stat.size);
      return undefined;
    }
    const file = await fs.openFile(path);
    try {
      const contents = (await file.read(0, MAX_IGNORE_FILE_BYTES)).slice();
      return { contents, text: decode(contents), version: file.version, shown: displayPath(path) };
    } finally {
      await file.close();
    }
  } catch (error) {
    // Gone, unreadable or swapped meanwhile: no rules from it (rules only ever hide entries).
    if ((error as { code?: unknown } | null)?.code !== undefined) return undefined;
    throw error;
  }
}

/** How a path below the start reads relative to `directory` (also below the start). */
function below(directory: string): (pathBelowStart: string) => string {
  return directory === '' ? (path) => path : (path) => path.slice(directory.length + 1);
}

function sortByName(sources: RuleSource[], files: readonly DirectoryFile[]): RuleSource[] {
  const rank = (index: number) => IGNORE_FILE_NAMES.indexOf(files[index].name as (typeof IGNORE_FILE_NAMES)[number]);
  return sources.map((source, index) => ({ source, rank: rank(index) })).sort((a, b) => a.rank - b.rank).map(({ source }) => source);
}

function join(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** The order a tree scan reports paths below its start in: depth first, a directory before its entries, names by code point. */
export function compareWalkOrder(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const order = compareCodePoints(left[i], right[i]);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}
