import { BoundedLineReader, type OversizedLine } from '../../../../../src/adapters/inbound/mcp/transports/bounded-line-reader.js';
import { requestIdOf } from '../../../../../src/adapters/inbound/mcp/transports/request-id-scan.js';

function reader(limit: number) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const lineReader = new BoundedLineReader(limit, { line: (bytes) => lines.push(bytes.toString()), oversized: (line) => oversized.push(line) });
  return { lineReader, lines, oversized };
}

describe('BoundedLineReader', () => {
  it('splits lines across chunks and keeps a line of exactly the limit', () => {
    const { lineReader, lines, oversized } = reader(10);
    lineReader.push(Buffer.from('abc'));
    lineReader.push(Buffer.from('defghij\nsecond\nthi'));
    lineReader.push(Buffer.from('rd\n'));
    expect(lines).toEqual(['abcdefghij', 'second', 'third']);
    expect(oversized).toEqual([]);
  });

  it('skips a line one byte over the limit to its newline, reports its size and edges, and reads the next line', () => {
    const { lineReader, lines, oversized } = reader(10);
    lineReader.push(Buffer.from('abcdefghijk'));
    lineReader.push(Buffer.from('lmnop\nnext\n'));
    expect(lines).toEqual(['next']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0].size).toBe(16);
    expect(oversized[0].head.toString()).toBe('abcdefghijklmnop');
    expect(oversized[0].tail.toString()).toBe('abcdefghijklmnop');
  });

  it('keeps at most 64 KiB of each edge of a 5 MB line fed in 1 KiB chunks', () => {
    const { lineReader, lines, oversized } = reader(100);
    const chunk = Buffer.alloc(1024, 'x');
    lineReader.push(Buffer.from('HEAD'));
    for (let i = 0; i < 5 * 1024; i++) lineReader.push(chunk);
    lineReader.push(Buffer.from('TAIL\n{"ok":1}\n'));
    expect(lines).toEqual(['{"ok":1}']);
    expect(oversized[0].size).toBe(4 + 5 * 1024 * 1024 + 4);
    expect(oversized[0].head.length).toBe(64 * 1024);
    expect(oversized[0].head.subarray(0, 4).toString()).toBe('HEAD');
    expect(oversized[0].tail.length).toBe(64 * 1024);
    expect(oversized[0].tail.subarray(-4).toString()).toBe('TAIL');
  });

  it('reports a last line without a newline when the stream ends, oversized or not', () => {
    const small = reader(10);
    small.lineReader.push(Buffer.from('one\ntwo'));
    small.lineReader.end();
    expect(small.lines).toEqual(['one', 'two']);
    const large = reader(10);
    large.lineReader.push(Buffer.from('x'.repeat(25)));
    large.lineReader.end();
    expect(large.lines).toEqual([]);
    expect(large.oversized.map((line) => line.size)).toEqual([25]);
  });
});

describe('requestIdOf', () => {
  const big = 'y'.repeat(1000);
  const line = (request: object) => JSON.stringify(request);

  it('reads a top-level id at the start', () => {
    const text = line({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: { content: big } } });
    expect(requestIdOf(text.slice(0, 200), text.slice(-200))).toBe(7);
  });

  it('reads a top-level id at the end (the SDK client puts it after params), string ids too', () => {
    const text = line({ method: 'tools/call', params: { arguments: { id: 99, content: `${big}","id":5,"\\"` } }, jsonrpc: '2.0', id: 'req-1' });
    expect(requestIdOf(text.slice(0, 200), text.slice(-200))).toBe('req-1');
  });

  it('never takes an id inside params for the request id', () => {
    const text = line({ method: 'tools/call', params: { id: 3, arguments: { content: big } }, jsonrpc: '2.0' });
    expect(requestIdOf(text.slice(0, 200), text.slice(-200))).toBeUndefined();
  });

  it('gives undefined for bytes that are not a JSON object', () => {
    expect(requestIdOf('xxxx', 'yyyy')).toBeUndefined();
    expect(requestIdOf('', '')).toBeUndefined();
  });
});

describe('BoundedLineReader decoding as chunks arrive', () => {
  it('decodes a character split across chunks, and keeps the edges of a line that turns out too long', () => {
    const { lineReader, lines, oversized } = reader(10);
    const word = Buffer.from('héllo\n');
    lineReader.push(word.subarray(0, 2));
    lineReader.push(word.subarray(2));
    expect(lines).toEqual(['héllo']);
    lineReader.push(Buffer.from('ab€cd'));
    lineReader.push(Buffer.from('efghij\n'));
    expect(oversized[0].size).toBe(13);
    expect(oversized[0].head.toString()).toBe('ab€cdefghij');
    expect(oversized[0].tail.toString()).toBe('ab€cdefghij');
  });
});

describe('BoundedLineReader with an admission check', () => {
  it('skips a line the sink does not admit, reports it as over budget, and reads the next line', () => {
    const lines: string[] = [];
    const oversized: OversizedLine[] = [];
    const asked: number[] = [];
    const lineReader = new BoundedLineReader(100, {
      line: (bytes) => lines.push(bytes.toString()),
      oversized: (line) => oversized.push(line),
      admit: (size) => {
        asked.push(size);
        return size <= 8;
      },
    });
    lineReader.push(Buffer.from('abcd'));
    lineReader.push(Buffer.from('efghij\nok\n'));
    expect(lines).toEqual(['ok']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0]).toMatchObject({ size: 10, reason: 'budget' });
    expect(oversized[0].head.toString()).toBe('abcdefghij');
    expect(asked).toEqual([4, 10, 2]);
  });

  it('reports a line past the limit as such even when the budget refused it first', () => {
    const oversized: OversizedLine[] = [];
    const lineReader = new BoundedLineReader(10, { line: () => undefined, oversized: (line) => oversized.push(line), admit: () => false });
    lineReader.push(Buffer.from('abcd'));
    lineReader.push(Buffer.from('efghijklmnop\n'));
    lineReader.push(Buffer.from('abcd\n'));
    expect(oversized).toMatchObject([{ size: 16, reason: 'limit' }, { size: 4, reason: 'budget' }]);
  });
});
