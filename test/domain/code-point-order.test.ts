import { compareCodePoints, sortByCodePoints } from '../../src/domain/code-point-order.js';

describe('compareCodePoints', () => {
  it('orders by code point, putting astral characters after U+FFFD', () => {
    const names = ['\u{1F600}', '\uFFFD', 'b', 'B', 'a', 'ab', ''];
    expect([...names].sort(compareCodePoints)).toEqual(['', 'B', 'a', 'ab', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('agrees with UTF-8 byte order', () => {
    const names = ['\u{1F600}', '\uE000', '\uFFFD', '\u{10000}', 'é', 'z', '\uD7FF'];
    const bytes = (name: string) => Array.from(new TextEncoder().encode(name));
    const byBytes = [...names].sort((a, b) => {
      const [x, y] = [bytes(a), bytes(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    expect([...names].sort(compareCodePoints)).toEqual(byBytes);
  });
});

describe('sortByCodePoints', () => {
  /** Random strings over units where `<` and code point order agree or (with astral characters) do not. */
  function randomStrings(count: number, alphabet: readonly string[], seed: number): string[] {
    let state = seed;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
  }

  it.each([
    ['without astral characters (the engine compares)', ['a', 'b', 'B', '/', '-', '.', 'é', '\uE000', '\uFFFD', '\uD7FF']],
    ['with astral characters (compareCodePoints compares)', ['a', '/', '-', '\uE000', '\uFFFD', '\u{1F600}', '\u{10000}']],
  ])('sorts %s exactly as compareCodePoints does', (_name, alphabet) => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const items = randomStrings(200, alphabet, seed).map((path) => ({ path }));
      const expected = [...items].sort((a, b) => compareCodePoints(a.path, b.path)).map((item) => item.path);
      expect(sortByCodePoints(items, (item) => item.path).map((item) => item.path)).toEqual(expected);
    }
  });

  it('puts an astral character after U+E000..U+FFFF, where `<` alone would not', () => {
    const items = ['\u{1F600}', '\uFFFD', 'a'];
    expect(sortByCodePoints([...items], (item) => item)).toEqual(['a', '\uFFFD', '\u{1F600}']);
    expect([...items].sort()).toEqual(['a', '\u{1F600}', '\uFFFD']);
  });
});
