import { recentDates } from '../../src/domain/recent-dates.js';

describe('recentDates', () => {
  it('gives each instant its own time, and the same Date again while the instant is among the last few made', () => {
    const dateOf = recentDates(2);
    const first = dateOf(5);
    expect(dateOf(5)).toBe(first);
    const other = dateOf(6);
    expect(other.getTime()).toBe(6);
    expect(dateOf(5)).toBe(first);
    // A third instant pushes the oldest out: 5 is made anew, with the right time.
    dateOf(7);
    const again = dateOf(5);
    expect(again).not.toBe(first);
    expect(again.getTime()).toBe(5);
    for (const ms of [0, -1, 1_700_000_000_123, 8.64e15]) expect(dateOf(ms).getTime()).toBe(ms);
  });
});
