import { StringDecoder } from 'node:string_decoder';

/** What the reader keeps of a line past the limit: enough of its start and end to read a request id. */
const KEPT_EDGE_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface OversizedLine {
  /** The whole line's length in bytes, newline excluded. */
  readonly size: number;
  /** Up to KEPT_EDGE_BYTES of its start and of its end. */
  readonly head: Buffer;
  readonly tail: Buffer;
  /** 'limit': longer than the reader's limit; 'budget': refused by the sink's admit. */
  readonly reason: 'limit' | 'budget';
}

export interface LineSink {
  /** A whole line, decoded as UTF-8. */
  line(text: string): void;
  oversized(line: OversizedLine): void;
  /**
   * Asked before a piece is kept, with the size the line would then have; false skips the line as
   * over budget (it is reported to `oversized`). Absent: only the limit applies.
   */
  admit?(lineBytes: number): boolean;
}

/**
 * Splits a byte stream into newline-ended lines of at most `limit` bytes (and, when the sink has an
 * `admit`, as many as it admits). A longer line is not kept:
 * past the limit the reader drops what it buffered, counts the bytes up to the next newline (or the
 * end of the stream), keeps only its two edges, and reports it, so a line of any size costs at most
 * `limit` plus the edges in memory and the line after it is read as usual.
 *
 * Each chunk is decoded as it arrives and its bytes let go, so a line is held once as text and never
 * as bytes joined then decoded (that cost the line's size twice more at its end), nor re-concatenated
 * per chunk (the SDK's ReadBuffer copies its whole buffer on every chunk, quadratic in the line's size).
 */
export class BoundedLineReader {
  private text = '';
  private readonly decoder = new StringDecoder('utf8');
  /** A copy of the kept line's first KEPT_EDGE_BYTES, should it turn out too long. */
  private head = Buffer.alloc(0);
  /** A copy of its last KEPT_EDGE_BYTES, kept as bytes so that a cut never flattens the text (a copy the limit's size). */
  private tail: Buffer = Buffer.alloc(0);
  private buffered = 0;
  /** Set while skipping a line past the limit. */
  private skipped?: { size: number; head: Buffer; tail: Buffer; reason: OversizedLine['reason'] };

  constructor(
    private readonly limit: number,
    private readonly sink: LineSink,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline < 0) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.buffered > 0 || this.skipped) this.finishLine();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipped) return this.skip(piece);
    const size = this.buffered + piece.length;
    const reason = size > this.limit ? 'limit' : this.sink.admit?.(size) === false ? 'budget' : undefined;
    if (reason === undefined) {
      if (this.head.length < KEPT_EDGE_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, KEPT_EDGE_BYTES - this.head.length)]);
      // Up to KEPT_EDGE_BYTES the head is the whole line (and so its tail): a short line copies nothing more.
      if (size > KEPT_EDGE_BYTES) this.tail = lastEdge(this.buffered > KEPT_EDGE_BYTES ? this.tail : this.head, piece);
      this.text += this.decoder.write(piece);
      this.buffered = size;
      return;
    }
    this.skipped = { size: this.buffered, head: this.head, tail: this.buffered > KEPT_EDGE_BYTES ? this.tail : this.head, reason };
    this.decoder.end();
    this.reset();
    this.skip(piece);
  }

  /** Counts a piece of an oversized line and keeps copies of its edges (a subarray would pin the whole chunk). */
  private skip(piece: Buffer): void {
    const skipped = this.skipped!;
    if (skipped.head.length < KEPT_EDGE_BYTES) {
      skipped.head = Buffer.concat([skipped.head, piece.subarray(0, KEPT_EDGE_BYTES - skipped.head.length)]);
    }
    skipped.size += piece.length;
    skipped.tail = lastEdge(skipped.tail, piece);
  }

  private finishLine(): void {
    const skipped = this.skipped;
    if (skipped) {
      this.skipped = undefined;
      this.sink.oversized(skipped.size > this.limit ? { ...skipped, reason: 'limit' } : skipped);
      return;
    }
    const line = this.text + this.decoder.end();
    this.reset();
    this.sink.line(line);
  }

  private reset(): void {
    this.text = '';
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    this.buffered = 0;
  }
}

/** The last KEPT_EDGE_BYTES of `edge` followed by `piece`, copied (a subarray would pin the whole chunk). */
function lastEdge(edge: Buffer, piece: Buffer): Buffer {
  const joined = piece.length >= KEPT_EDGE_BYTES ? piece.subarray(piece.length - KEPT_EDGE_BYTES) : Buffer.concat([edge, piece]);
  return Buffer.from(joined.subarray(Math.max(0, joined.length - KEPT_EDGE_BYTES)));
}
