import { jest } from '@jest/globals';
import { jsonByteLength } from '../../../../../src/adapters/inbound/mcp/tool-calls/json-size.js';

const exact = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');

describe('jsonByteLength', () => {
  const long = 'x'.repeat(300);
  const values: unknown[] = [
    '',
    'plain',
    'quote " backslash \\ slash /',
    '\b\t\n\f\r\u0000\u0001\u001f\u007f',
    'é ü 中文 𝄞 😀',
    'lone \ud800 high, lone \udc00 low, pair \ud83d\ude00',
    long,
    `${long}"\n\u0001é𝄞`,
    0,
    -0,
    1.5,
    -1e-7,
    1e21,
    Number.MAX_SAFE_INTEGER,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    null,
    [],
    {},
    [1, 'a', null, undefined, () => 1, Symbol('s'), [[]], {}],
    { a: 1, skipped: undefined, fn: () => 1, sym: Symbol('s'), nested: { 'key "quoted"': [long, long], é: 'ü' } },
    { when: new Date(Date.UTC(2020, 1, 2, 3, 4, 5, 6)), custom: { toJSON: () => ({ replaced: 'yes' }) } },
    { content: [{ type: 'text', text: long }], structuredContent: { content: long, size: 300, binary: false } },
  ];

  it.each(values.map((value) => [JSON.stringify(value) ?? String(value), value]))('measures %s as JSON.stringify does', (_name, value) => {
    expect(jsonByteLength({ value })).toBe(exact({ value }));
    expect(jsonByteLength([value])).toBe(exact([value]));
  });

  it('uses a size it is told instead of serialising that object again', () => {
    const structured = { content: 'abc' };
    const known = new Map<unknown, number>([[structured, 1000]]);
    expect(jsonByteLength({ structuredContent: structured }, known)).toBe('{"structuredContent":}'.length + 1000);
  });

  it('serialises a long string referenced twice only once', () => {
    const content = 'y"'.repeat(100_000);
    const result = { content: [{ type: 'text', text: content }], structuredContent: { content } };
    const expected = exact(result);
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(jsonByteLength(result)).toBe(expected);
      expect(stringify.mock.calls.filter(([value]) => value === content)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });
});
