/**
 * The order of names and paths in results (list_folder, glob, tree walks): Unicode code point
 * order, which is also UTF-8 byte order, so it matches `LC_ALL=C ls`. Plain `<` compares UTF-16
 * units instead and puts astral characters (emoji) before U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (astral code points) must sort after U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** A UTF-16 surrogate: only between two strings holding one can `<` disagree with code point order. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Sorts `items` in place in the code point order of `key(item)`. Where no key holds a surrogate (no
 * astral character), UTF-16 order is code point order, so the engine's own string comparison is used
 * (the sort and JSON of a glob's 25,105 paths took 16.5-17.6 ms with compareCodePoints, 11.9-14.2 so).
 */
export function sortByCodePoints<T>(items: T[], key: (item: T) => string): T[] {
  if (items.some((item) => SURROGATE.test(key(item)))) return items.sort((a, b) => compareCodePoints(key(a), key(b)));
  return items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
