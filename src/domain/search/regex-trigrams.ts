import {
  alternate,
  anyChar,
  concat,
  emptyMatch,
  oneOf,
  queryOf,
  type RegexFacts,
  repeat,
} from './regex-facts.js';
import { ALL, keyText, type TrigramQuery } from './trigram-query.js';

/**
 * The trigrams a line must hold to match an RE2 pattern (as the re2 package reads it: RE2 syntax,
 * plus `\uXXXX`, `\u{...}` and `(?<name>`). The pattern has already compiled. Anything this reader
 * does not fully understand gives up to ALL (scan every file): a query that is too weak costs time,
 * one that is too strong would hide a match, so every doubt resolves toward weaker.
 */
export function trigramQueryOf(pattern: string, options: { caseInsensitive: boolean }): TrigramQuery {
  // An inline flag group naming i anywhere ("(?i)", "(?-i:", "(?si)") makes the whole pattern case-insensitive here: weaker, never wrong.
  const caseInsensitive = options.caseInsensitive || /\(\?[a-zA-Z-]*i/.test(pattern);
  try {
    const reader = new PatternReader(pattern, caseInsensitive);
    const facts = reader.alternation();
    if (!reader.done()) return ALL;
    return queryOf(facts);
  } catch (error) {
    if (error instanceof Unsupported) return ALL;
    throw error;
  }
}

class Unsupported extends Error {}

/** Largest character class listed member by member; a wider one is any character. */
const MAX_CLASS_CHARS = 8;

/** Escapes that stand for one fixed character. */
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, a: 0x07 };
/** Escapes that stand for a class of characters (never listed). */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'C']);
/** Escapes that match no character at all. */
const EMPTY_ESCAPES = new Set(['b', 'B', 'A', 'z']);

type ClassMember = { readonly kind: 'chars'; readonly from: number; readonly to: number } | { readonly kind: 'wide' };

class PatternReader {
  private at = 0;

  constructor(
    private readonly pattern: string,
    private readonly caseInsensitive: boolean,
  ) {}

  done(): boolean {
    return this.at >= this.pattern.length;
  }

  alternation(): RegexFacts {
    let facts = this.sequence();
    while (this.peek() === '|') {
      this.at += 1;
      facts = alternate(facts, this.sequence());
    }
    return facts;
  }

  private sequence(): RegexFacts {
    let facts = emptyMatch;
    while (!this.done() && this.peek() !== '|' && this.peek() !== ')') facts = concat(facts, this.repetition());
    return facts;
  }

  private repetition(): RegexFacts {
    let facts = this.atom();
    for (;;) {
      const next = this.peek();
      if (next === '*') facts = this.quantified(facts, 1, 0, undefined);
      else if (next === '+') facts = this.quantified(facts, 1, 1, undefined);
      else if (next === '?') facts = this.quantified(facts, 1, 0, 1);
      else if (next !== '{') return facts;
      else {
        const count = this.countAhead();
        if (!count) return facts;
        facts = this.counted(facts, count);
      }
    }
  }

  /** RE2 reads `{` as a repetition only in these forms; any other brace is a literal character. */
  private countAhead(): RegExpExecArray | null {
    return /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.at));
  }

  private quantified(facts: RegexFacts, length: number, min: number, max: number | undefined): RegexFacts {
    this.at += length;
    if (this.peek() === '?') this.at += 1; // lazy: the same strings match
    return repeat(facts, min, max);
  }

  private counted(facts: RegexFacts, found: RegExpExecArray): RegexFacts {
    const min = Number(found[1]);
    const max = found[2] === undefined ? min : found[3] === '' ? undefined : Number(found[3]);
    return this.quantified(facts, found[0].length, min, max);
  }

  private atom(): RegexFacts {
    const char = this.peek();
    if (char === '(') return this.group();
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape();
    this.at += 1;
    if (char === '.') return anyChar;
    if (char === '^' || char === '$') return emptyMatch;
    if (char === '*' || char === '+' || char === '?' || char === ')') throw new Unsupported();
    const codePoint = this.pattern.codePointAt(this.at - 1)!;
    if (codePoint > 0xffff) this.at += 1;
    return this.literal(codePoint);
  }

  private group(): RegexFacts {
    this.at += 1;
    if (this.pattern.startsWith('?', this.at)) {
      const head = /^\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|[a-zA-Z-]*:|([a-zA-Z-]*)\))/.exec(this.pattern.slice(this.at));
      if (!head) throw new Unsupported();
      this.at += head[0].length;
      if (head[1] !== undefined) return emptyMatch; // "(?i)": flags alone, matching nothing
    }
    const facts = this.alternation();
    if (this.peek() !== ')') throw new Unsupported();
    this.at += 1;
    return facts;
  }

  private escape(): RegexFacts {
    const member = this.escapedMember();
    if (member === 'empty') return emptyMatch;
    if (member === 'quoted') return this.quoted();
    if (member.kind === 'wide') return anyChar;
    return this.literal(member.from);
  }

  /** `\Q...\E`: everything up to `\E` (or the end) is literal. */
  private quoted(): RegexFacts {
    const end = this.pattern.indexOf('\\E', this.at);
    const text = this.pattern.slice(this.at, end < 0 ? undefined : end);
    this.at = end < 0 ? this.pattern.length : end + 2;
    let facts = emptyMatch;
    for (const char of text) facts = concat(facts, this.literal(char.codePointAt(0)!));
    return facts;
  }

  /** Reads one escape after the backslash. */
  private escapedMember(): ClassMember | 'empty' | 'quoted' {
    const letter = this.pattern[this.at + 1];
    if (letter === undefined) throw new Unsupported();
    this.at += 2;
    if (CONTROL_ESCAPES[letter] !== undefined) return single(CONTROL_ESCAPES[letter]);
    if (CLASS_ESCAPES.has(letter)) return { kind: 'wide' };
    if (EMPTY_ESCAPES.has(letter)) return 'empty';
    if (letter === 'Q') return 'quoted';
    if (letter === 'p' || letter === 'P') return this.unicodeClass();
    if (letter === 'x' || letter === 'u') return single(this.hexEscape(letter));
    if (/[0-9A-Za-z]/.test(letter) || letter.charCodeAt(0) >= 0x80) throw new Unsupported();
    return single(letter.charCodeAt(0));
  }

  private unicodeClass(): ClassMember {
    const found = /^(\{[^}]*\}|[A-Za-z])/.exec(this.pattern.slice(this.at));
    if (!found) throw new Unsupported();
    this.at += found[0].length;
    return { kind: 'wide' };
  }

  /** `\xHH`, `\x{H...}`, `\u{H...}`, and the re2 package's `\uH` to `\uHHHH`. */
  private hexEscape(letter: string): number {
    const rest = this.pattern.slice(this.at);
    const found = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest) ?? (letter === 'x' ? /^([0-9A-Fa-f]{2})/ : /^([0-9A-Fa-f]{1,4})/).exec(rest);
    if (!found) throw new Unsupported();
    this.at += found[0].length;
    const codePoint = parseInt(found[1]!, 16);
    if (codePoint > 0x10ffff) throw new Unsupported();
    return codePoint;
  }

  private characterClass(): RegexFacts {
    this.at += 1;
    const negated = this.peek() === '^';
    if (negated) this.at += 1;
    const members: ClassMember[] = [];
    // RE2: a ']' first in the class is a member, not its end.
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.done()) throw new Unsupported();
      first = false;
      members.push(this.classMember());
    }
    this.at += 1;
    if (negated) return anyChar;
    return this.classFacts(members);
  }

  private classMember(): ClassMember {
    const posix = /^\[:\^?[a-z]+:\]/.exec(this.pattern.slice(this.at));
    if (posix) {
      this.at += posix[0].length;
      return { kind: 'wide' };
    }
    const from = this.classChar();
    if (from.kind === 'wide') return from;
    if (this.peek() !== '-' || this.pattern[this.at + 1] === ']' || this.at + 1 >= this.pattern.length) return from;
    this.at += 1;
    const to = this.classChar();
    if (to.kind === 'wide') throw new Unsupported();
    return { kind: 'chars', from: from.from, to: to.from };
  }

  private classChar(): ClassMember {
    if (this.peek() === '\\') {
      const member = this.escapedMember();
      if (member === 'empty' || member === 'quoted') throw new Unsupported();
      return member;
    }
    const codePoint = this.pattern.codePointAt(this.at)!;
    this.at += codePoint > 0xffff ? 2 : 1;
    return single(codePoint);
  }

  private classFacts(members: readonly ClassMember[]): RegexFacts {
    const strings = new Set<string>();
    for (const member of members) {
      if (member.kind === 'wide' || member.to - member.from >= MAX_CLASS_CHARS) return anyChar;
      for (let codePoint = member.from; codePoint <= member.to; codePoint += 1) {
        const key = this.keyOf(codePoint);
        if (key === undefined) return anyChar;
        strings.add(key);
      }
      if (strings.size > MAX_CLASS_CHARS) return anyChar;
    }
    return oneOf(strings);
  }

  private literal(codePoint: number): RegexFacts {
    const key = this.keyOf(codePoint);
    return key === undefined ? anyChar : oneOf([key]);
  }

  /**
   * The keyed text of one character, or undefined when a case-insensitive match could be another
   * character with another key. Measured on RE2: the only non-ASCII characters that fold to ASCII are
   * U+212A KELVIN SIGN (k) and U+017F LATIN SMALL LETTER LONG S (s), so k and s are unknown too.
   */
  private keyOf(codePoint: number): string | undefined {
    if (!this.caseInsensitive) return keyText(String.fromCodePoint(codePoint));
    if (codePoint >= 0x80) return undefined;
    const lower = String.fromCharCode(codePoint).toLowerCase();
    if (lower === 'k' || lower === 's') return undefined;
    return lower;
  }

  private peek(): string | undefined {
    return this.pattern[this.at];
  }
}

function single(codePoint: number): ClassMember {
  return { kind: 'chars', from: codePoint, to: codePoint };
}
