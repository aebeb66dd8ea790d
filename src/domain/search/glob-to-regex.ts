import { errors } from '../errors.js';

/**
 * Translates a glob into an anchored RE2 pattern. Security: globs come from clients, and a
 * backtracking matcher (picomatch's JS RegExps) is exponential on patterns like `+(*)c`; the
 * translation is linear in the glob and RE2 matches in linear time, so no glob can stall the
 * event loop.
 *
 * Semantics (doublestar, dot files included): `*` is any run of non-'/' characters, `?` one
 * non-'/' character; `**` forming a whole path segment is zero or more segments (elsewhere it is
 * `*`); `[abc]`, `[a-z]`, `[!abc]`/`[^abc]`, `[[:alpha:]]` (a ']' first is literal, negated classes
 * never match '/'); `{a,b}` alternation, nested, with globs inside (`{a}` and `{}` are literal);
 * the extglobs `@(a|b)`, `?(a)`, `*(a)`, `+(a)`; a backslash makes the next character literal.
 * `!(a)` needs lookahead, which RE2 lacks, so it is refused. Errors are INVALID_ARGUMENT with the
 * reason alone: the caller names the parameter.
 */
export function globToRegex(glob: string): string {
  const nodes = new GlobParser(glob).parse();
  return `^${emitSequence(nodes, true, true)}$`;
}

/**
 * The literal text every path matching `glob` ends with (its trailing literal characters), or null.
 * `decides` says when that ending alone decides a match: `any-depth` for a globstar segment, a
 * star and the literal (any path whose last segment ends so, the usual "any .ts file below"),
 * `top-level` for a star and the literal (the same, in a path without '/'); otherwise the regex
 * must still confirm. A cheap first test that
 * spares the regex for most paths of a tree.
 */
export interface GlobEnding {
  readonly suffix: string;
  readonly decides: 'any-depth' | 'top-level' | false;
}

export function globEnding(glob: string): GlobEnding | null {
  const nodes = new GlobParser(glob).parse();
  let first = nodes.length;
  while (first > 0 && nodes[first - 1].kind === 'literal') first -= 1;
  const suffix = nodes
    .slice(first)
    .map((node) => (node.kind === 'literal' ? node.text : ''))
    .join('');
  if (suffix === '') return null;
  const head = nodes.slice(0, first).map((node) => node.kind);
  const plain = !suffix.includes('/');
  if (plain && head.join(' ') === 'globstar separator star') return { suffix, decides: 'any-depth' };
  if (plain && head.join(' ') === 'star') return { suffix, decides: 'top-level' };
  return { suffix, decides: false };
}

type Repeat = '' | '?' | '*' | '+';

type GlobNode =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'separator' }
  | { readonly kind: 'star' }
  | { readonly kind: 'globstar' }
  | { readonly kind: 'any' }
  | { readonly kind: 'class'; readonly source: string }
  | { readonly kind: 'group'; readonly alternatives: GlobNode[][]; readonly repeat: Repeat };

interface GroupSyntax {
  readonly separator: string;
  readonly close: string;
}

const BRACES: GroupSyntax = { separator: ',', close: '}' };
const EXTGLOB: GroupSyntax = { separator: '|', close: ')' };
const EXTGLOB_REPEAT: Record<string, Repeat> = { '@': '', '?': '?', '*': '*', '+': '+' };

const REGEX_METACHARACTERS = new Set('\\.+*?()|[]{}^$');
const CLASS_METACHARACTERS = new Set('\\[]^-');
const POSIX_CLASSES = new Set([
  'alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit',
]);

const ANY_SEGMENTS_WITH_SLASH = '(?:[^/]*/)*';
const ANY_PATH = '(?s:.*)';

class GlobParser {
  private position = 0;

  constructor(private readonly glob: string) {}

  parse(): GlobNode[] {
    return this.sequence(undefined);
  }

  /** Nodes up to the end of the glob or, inside a group, up to its separator or closing character. */
  private sequence(group: GroupSyntax | undefined): GlobNode[] {
    const nodes: GlobNode[] = [];
    while (this.position < this.glob.length) {
      const char = this.glob[this.position];
      if (group && (char === group.separator || char === group.close)) break;
      const next = this.glob[this.position + 1];
      if (next === '(' && char === '!') throw errors.invalidArgument('negated extglob !(...) is not supported');
      if (next === '(' && char in EXTGLOB_REPEAT) {
        this.position += 2;
        nodes.push({ kind: 'group', alternatives: this.alternatives(EXTGLOB, "'('"), repeat: EXTGLOB_REPEAT[char] });
      } else if (char === '*') {
        const start = this.position;
        while (this.glob[this.position] === '*' && this.glob[this.position + 1] !== '(') this.position += 1;
        nodes.push({ kind: this.position - start > 1 ? 'globstar' : 'star' });
      } else if (char === '{') {
        this.position += 1;
        const alternatives = this.alternatives(BRACES, "'{'");
        // Without a comma there is nothing to choose between: the braces are literal, as in a shell.
        if (alternatives.length === 1) nodes.push({ kind: 'literal', text: '{' }, ...alternatives[0], { kind: 'literal', text: '}' });
        else nodes.push({ kind: 'group', alternatives, repeat: '' });
      } else if (char === '[') {
        nodes.push({ kind: 'class', source: this.characterClass() });
      } else {
        this.position += 1;
        if (char === '/') nodes.push({ kind: 'separator' });
        else if (char === '?') nodes.push({ kind: 'any' });
        else if (char === '\\' && this.position < this.glob.length) nodes.push({ kind: 'literal', text: this.codePoint() });
        else nodes.push({ kind: 'literal', text: char });
      }
    }
    return nodes;
  }

  /** The alternatives of a group whose opening has been consumed, through its closing character. */
  private alternatives(syntax: GroupSyntax, opening: string): GlobNode[][] {
    const alternatives = [this.sequence(syntax)];
    while (this.glob[this.position] === syntax.separator) {
      this.position += 1;
      alternatives.push(this.sequence(syntax));
    }
    if (this.glob[this.position] !== syntax.close) throw errors.invalidArgument(`unclosed ${opening} in glob`);
    this.position += 1;
    return alternatives;
  }

  private characterClass(): string {
    this.position += 1;
    const negated = this.glob[this.position] === '!' || this.glob[this.position] === '^';
    if (negated) this.position += 1;
    let members = '';
    for (let first = true; ; first = false) {
      if (this.position >= this.glob.length) throw errors.invalidArgument("unclosed '[' in glob");
      if (this.glob[this.position] === ']' && !first) break;
      const posix = /^\[:([a-z]+):\]/.exec(this.glob.slice(this.position, this.position + 10));
      if (posix && POSIX_CLASSES.has(posix[1])) {
        members += posix[0];
        this.position += posix[0].length;
        continue;
      }
      const low = this.classMember();
      if (this.glob[this.position] === '-' && this.position + 1 < this.glob.length && this.glob[this.position + 1] !== ']') {
        this.position += 1;
        const high = this.classMember();
        if (high.codePointAt(0)! < low.codePointAt(0)!) throw errors.invalidArgument(`invalid range ${low}-${high} in glob`);
        members += `${classLiteral(low)}-${classLiteral(high)}`;
      } else {
        members += classLiteral(low);
      }
    }
    this.position += 1;
    // A negated class must still stay inside one path segment, like `?`.
    return negated ? `[^/${members}]` : `[${members}]`;
  }

  private classMember(): string {
    if (this.glob[this.position] === '\\') {
      this.position += 1;
      if (this.position >= this.glob.length) throw errors.invalidArgument("unclosed '[' in glob");
    }
    return this.codePoint();
  }

  private codePoint(): string {
    const text = String.fromCodePoint(this.glob.codePointAt(this.position)!);
    this.position += text.length;
    return text;
  }
}

/**
 * `atStart` / `atEnd`: whether a path segment boundary ('/' or an end of the path) lies just
 * before / after this sequence, which decides whether a `**` in it forms a whole segment.
 */
function emitSequence(nodes: GlobNode[], atStart: boolean, atEnd: boolean): string {
  const startsSegment = (i: number) => (i === 0 ? atStart : nodes[i - 1].kind === 'separator');
  const endsSegment = (i: number) => (i === nodes.length - 1 ? atEnd : nodes[i + 1].kind === 'separator');
  const wholeSegmentGlobstar = (i: number) => nodes[i]?.kind === 'globstar' && startsSegment(i) && endsSegment(i);
  let source = '';
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i];
    if (wholeSegmentGlobstar(i) && nodes[i + 1]?.kind === 'separator') {
      // `**/`: zero or more whole segments, so `**/x` also matches `x`.
      source += ANY_SEGMENTS_WITH_SLASH;
      i += 1;
    } else if (node.kind === 'separator' && wholeSegmentGlobstar(i + 1) && nodes[i + 2]?.kind !== 'separator') {
      // A trailing `/**`: the directory itself and everything below it.
      source += `(?:/${ANY_PATH})?`;
      i += 1;
    } else if (node.kind === 'globstar') {
      source += wholeSegmentGlobstar(i) ? ANY_PATH : '[^/]*';
    } else {
      source += emitNode(node, startsSegment(i), endsSegment(i));
    }
  }
  return source;
}

function emitNode(node: GlobNode, atStart: boolean, atEnd: boolean): string {
  switch (node.kind) {
    case 'literal':
      return REGEX_METACHARACTERS.has(node.text) ? `\\${node.text}` : node.text;
    case 'separator':
      return '/';
    case 'star':
    case 'globstar':
      return '[^/]*';
    case 'any':
      return '[^/]';
    case 'class':
      return node.source;
    case 'group': {
      // A repeated group's alternatives do not sit on fixed segment boundaries: `**` there is `*`.
      const fixed = node.repeat === '' || node.repeat === '?';
      const alternatives = node.alternatives.map((nodes) => emitSequence(nodes, fixed && atStart, fixed && atEnd));
      return `(?:${alternatives.join('|')})${node.repeat}`;
    }
  }
}

function classLiteral(char: string): string {
  return CLASS_METACHARACTERS.has(char) ? `\\${char}` : char;
}
