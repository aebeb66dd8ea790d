import { compareCodePoints } from '../../src/domain/code-point-order.js';

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
