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
