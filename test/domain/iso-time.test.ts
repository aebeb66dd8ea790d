import { isoTimeFormatter } from '../../src/domain/iso-time.js';

const DAY = 86_400_000;

function randomTimes(count: number, from: number, to: number, seed: number): number[] {
  // A fixed linear congruential sequence: the same values on every run.
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor(from + (state / 2 ** 31) * (to - from));
  });
}

describe('isoTimeFormatter', () => {
  const edges = [
    0,
    -1,
    1,
    DAY - 1,
    -DAY,
    Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    Date.UTC(2000, 1, 29, 12),
    Date.UTC(1900, 1, 28, 23, 59, 59, 999),
    Date.UTC(1900, 2, 1),
    Date.UTC(2024, 1, 29),
    Date.UTC(2100, 2, 1),
    new Date('0000-01-01T00:00:00.000Z').getTime(),
    new Date('0000-01-01T00:00:00.000Z').getTime() - 1,
    new Date('9999-12-31T23:59:59.999Z').getTime(),
    new Date('9999-12-31T23:59:59.999Z').getTime() + 1,
    8.64e15,
    -8.64e15,
  ];

  it.each(edges)('formats %d as toISOString does', (ms) => {
    const format = isoTimeFormatter();
    expect(format(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('agrees with toISOString on 200,000 times from year 0 to 9999 and beyond, in any order', () => {
    const format = isoTimeFormatter();
    const wide = randomTimes(100_000, -8.64e15, 8.64e15, 7);
    const recent = randomTimes(50_000, Date.UTC(1960, 0, 1), Date.UTC(2040, 0, 1), 11);
    // Many times on one day, as in a directory written at once, exercise the cached date part.
    const oneDay = randomTimes(50_000, Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 24), 13);
    const mismatches = [...wide, ...recent, ...oneDay, ...recent.slice(0, 1000)]
      .map((ms) => new Date(ms))
      .filter((date) => format(date) !== date.toISOString())
      .slice(0, 5)
      .map((date) => date.toISOString());
    expect(mismatches).toEqual([]);
  });

  it('agrees with toISOString on runs of one instant, as files written together share their millisecond (the cached text)', () => {
    const format = isoTimeFormatter();
    const instants = randomTimes(2_000, Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 24), 17);
    // Runs of one to four of each instant, with an out-of-range year (formatted by toISOString) in between.
    const runs = instants.flatMap((ms, index) => [...Array.from({ length: 1 + (index % 4) }, () => ms), ...(index % 7 === 0 ? [8.64e15] : [])]);
    const mismatches = runs.map((ms) => new Date(ms)).filter((date) => format(date) !== date.toISOString());
    expect(mismatches.map((date) => date.toISOString())).toEqual([]);
  });

  it('throws for an invalid date as toISOString does', () => {
    expect(() => isoTimeFormatter()(new Date(Number.NaN))).toThrow(RangeError);
  });
});
