// Paired comparisons: two variants called alternately, call by call, from the same client process,
// so that the machine's noise (other sessions, GC of the bench itself) falls on both alike. Each round
// gives one ratio (median of A's calls in it ÷ median of B's); the row shows the median of those
// ratios and their spread (min–max over rounds), which a single median of medians hides.
import { performance } from 'node:perf_hooks';
import { latency, timed } from './stats.mjs';

/**
 * Runs `a` and `b` once each untimed, then `rounds` rounds of `perRound` calls each, alternating
 * (A,B then B,A) so neither always goes first. Returns every sample and the per-round ratios A ÷ B.
 */
export async function pairedRounds(rounds, perRound, a, b) {
  const samples = { a: [], b: [] };
  const ratios = [];
  await a();
  await b();
  for (let round = 0; round < rounds; round += 1) {
    const inRound = { a: [], b: [] };
    for (let i = 0; i < perRound; i += 1) {
      const order = (round * perRound + i) % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const name of order) inRound[name].push((await timed(name === 'a' ? a : b)).ms);
    }
    samples.a.push(...inRound.a);
    samples.b.push(...inRound.b);
    ratios.push(latency(inRound.a).median / latency(inRound.b).median);
  }
  return { a: latency(samples.a), b: latency(samples.b), ratios };
}

/** The median of per-round (or per-block) ratios and their min–max, e.g. "1.03× 8a02d63 (0.97–1.12, 11 rounds)". */
export function spread(ratios, against, unit = 'rounds') {
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const text = `${median.toFixed(2)}× ${against} (${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}, ${sorted.length} ${unit})`;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], text };
}

/**
 * Per-block ratios of two variants sampled in the same rounds (interleaved()'s samples are aligned
 * round by round): `blocks` runs of consecutive rounds, each giving median(A) ÷ median(B).
 */
export function blockRatios(a, b, blocks) {
  const size = Math.max(1, Math.floor(Math.min(a.length, b.length) / blocks));
  const ratios = [];
  for (let start = 0; start + size <= Math.min(a.length, b.length); start += size) {
    ratios.push(latency(a.slice(start, start + size)).median / latency(b.slice(start, start + size)).median);
  }
  return ratios;
}

/** `inFlight` callers sharing `total` calls; returns the ms they took. */
export async function burst(inFlight, total, makeCall) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        next += 1;
        await makeCall();
      }
    }),
  );
  return performance.now() - started;
}
