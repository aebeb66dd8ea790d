// Medians, p95 and the one table the benchmark prints.
import { performance } from 'node:perf_hooks';

export async function timed(action) {
  const started = performance.now();
  const result = await action();
  return { ms: performance.now() - started, result };
}

export function quantile(samples, q) {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A latency cell: median and p95 of samples in ms. */
export function latency(samples) {
  return samples.length ? { median: quantile(samples, 0.5), p95: quantile(samples, 0.95), p99: quantile(samples, 0.99), n: samples.length, unit: 'ms' } : undefined;
}

/** A throughput cell: calls a second (higher is better). */
export function throughput(callsPerSecond, p99) {
  return { median: callsPerSecond, p99, unit: 'calls/s' };
}

function formatMs(ms) {
  if (ms === undefined) return '';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}

export function formatCell(cell) {
  if (cell === undefined) return '—';
  if (cell === 'n/a') return 'n/a';
  if (cell.unit === 'calls/s') return `${cell.median.toFixed(0)}/s${cell.p99 !== undefined ? ` (p99 ${formatMs(cell.p99)} ms)` : ''}`;
  return `${formatMs(cell.median)} ms${cell.n > 1 ? ` (p95 ${formatMs(cell.p95)})` : ''}`;
}

/** The rows as one Markdown table (it reads in a terminal and pastes into a note). */
export function renderTable(rows) {
  const header = ['workload', 'ours stdio', 'ours HTTP', 'ours modern HTTP', 'reference', 'floor / system', 'ratio', 'bar', 'met?'];
  const lines = rows.map((row) => [
    row.name + (row.check === true ? '' : ` **CHECK FAILED: ${row.check}**`),
    formatCell(row.ours),
    formatCell(row.oursHttp),
    formatCell(row.oursModern),
    formatCell(row.reference),
    (row.floors ?? []).map(([label, cell]) => `${label} ${formatCell(cell)}`).join('; ') || '—',
    row.ratio ?? '—',
    row.bar ?? '—',
    row.met === undefined ? '—' : row.met ? 'met' : 'NOT met',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
