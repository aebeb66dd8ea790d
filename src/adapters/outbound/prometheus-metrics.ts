import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServerMetrics, ToolCallRecord } from '../shared/metrics.port.js';

/**
 * The Prometheus registry of one server (prom-client). Labels take only bounded values: tool
 * names from the registered definitions, configured root names ('other' for anything a client
 * made up), error codes and fixed reasons; never a path, a principal or a token.
 */
export class PrometheusMetrics implements ServerMetrics {
  readonly registry = new Registry();
  private readonly roots: ReadonlySet<string>;
  private readonly toolCalls: Counter<'tool' | 'root' | 'outcome'>;
  private readonly toolLatency: Histogram<'tool'>;
  private readonly bytes: Counter<'direction'>;
  private readonly denials: Counter<'reason'>;
  private readonly authFailures: Counter<'reason'>;
  private readonly journalBytes: Gauge;
  private readonly journalRecords: Gauge;
  private readonly journalEvictions: Counter;
  private readonly undoOutcomes: Counter<'outcome'>;
  private readonly admittedBytes: Counter;
  private readonly refusedBytes: Counter;

  constructor(rootNames: readonly string[]) {
    this.roots = new Set(rootNames);
    collectDefaultMetrics({ register: this.registry, prefix: 'mcp_fs_' });
    const registers = [this.registry];
    this.toolCalls = new Counter({
      name: 'mcp_fs_tool_calls_total',
      help: 'Tool calls by tool, root and outcome',
      labelNames: ['tool', 'root', 'outcome'],
      registers,
    });
    this.toolLatency = new Histogram({
      name: 'mcp_fs_tool_call_duration_seconds',
      help: 'Tool call latency by tool',
      labelNames: ['tool'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 300],
      registers,
    });
    this.bytes = new Counter({
      name: 'mcp_fs_bytes_total',
      help: 'Bytes read by clients (tool responses) and written (content of writing calls)',
      labelNames: ['direction'],
      registers,
    });
    this.denials = new Counter({ name: 'mcp_fs_security_denials_total', help: 'Security denials by reason', labelNames: ['reason'], registers });
    this.authFailures = new Counter({
      name: 'mcp_fs_auth_failures_total',
      help: 'Refused HTTP authentications by reason',
      labelNames: ['reason'],
      registers,
    });
    this.journalBytes = new Gauge({ name: 'mcp_fs_journal_bytes', help: 'Bytes the change journal holds against journal.max_bytes (the disk store: its whole directory)', registers });
    this.journalRecords = new Gauge({ name: 'mcp_fs_journal_records', help: 'Changes the journal holds', registers });
    this.journalEvictions = new Counter({ name: 'mcp_fs_journal_evictions_total', help: 'Before-images evicted, and records forgotten, to stay within journal.max_bytes', registers });
    this.admittedBytes = new Counter({ name: 'mcp_fs_request_bytes_admitted_total', help: 'Request body bytes the admission budget let in', registers });
    this.refusedBytes = new Counter({
      name: 'mcp_fs_request_bytes_refused_total',
      help: 'Bytes of requests the admission budget turned away (HTTP 503 or 413, a refused stdio line)',
      registers,
    });
    this.undoOutcomes = new Counter({ name: 'mcp_fs_undo_outcomes_total', help: 'Changes undo_changes was asked to undo, by outcome', labelNames: ['outcome'], registers });
  }

  journalUsage(bytes: number, records: number): void {
    this.journalBytes.set(bytes);
    this.journalRecords.set(records);
  }

  journalEvicted(count: number): void {
    this.journalEvictions.inc(count);
  }

  undoOutcome(outcome: string): void {
    this.undoOutcomes.inc({ outcome });
  }

  /** The open-sessions gauge reads the session count when scraped. */
  trackOpenSessions(count: () => number): void {
    this.gaugeReading('mcp_fs_open_sessions', 'Open MCP sessions', count);
  }

  requestBytesAdmitted(bytes: number): void {
    this.admittedBytes.inc(bytes);
  }

  requestBytesRefused(bytes: number): void {
    this.refusedBytes.inc(bytes);
  }

  /** The in-flight gauge reads the admission budget's total when scraped. */
  trackInflightRequestBytes(count: () => number): void {
    this.gaugeReading('mcp_fs_inflight_request_bytes', 'Bytes of request bodies being read or held now (limits.inflight_request_bytes)', count);
  }

  /** The watches gauge reads the watch budget's total when scraped. */
  trackWatches(count: () => number): void {
    this.gaugeReading('mcp_fs_watches_in_use', 'Folder watches resources/subscribe holds now (limits.watches)', count);
  }

  /** A gauge that reads its value when scraped. */
  private gaugeReading(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  toolCallFinished(call: ToolCallRecord): void {
    const root = call.root === undefined ? 'none' : this.roots.has(call.root) ? call.root : 'other';
    this.toolCalls.inc({ tool: call.tool, root, outcome: call.outcome });
    this.toolLatency.observe({ tool: call.tool }, call.durationSeconds);
    this.bytes.inc({ direction: 'read' }, call.responseBytes);
    if (call.writtenBytes > 0) this.bytes.inc({ direction: 'written' }, call.writtenBytes);
    if (call.denial !== undefined) this.denials.inc({ reason: call.denial });
  }

  authFailed(reason: string): void {
    this.authFailures.inc({ reason });
  }

  contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
