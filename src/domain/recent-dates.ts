/**
 * Dates for instants, handing out again the last few made for the same instant. A listing or a walk
 * makes a stat per entry with its times as Dates, and the files of a folder written together share
 * their millisecond: a walk of 1M files made two Dates a file, the largest part of its garbage. Sharing
 * is safe because nothing changes a stat's Date in place.
 */
export function recentDates(keep = 4): (ms: number) => Date {
  const dates: Date[] = [];
  return (ms) => {
    for (const date of dates) if (date.getTime() === ms) return date;
    const date = new Date(ms);
    if (dates.length >= keep) dates.shift();
    dates.push(date);
    return date;
  };
}
