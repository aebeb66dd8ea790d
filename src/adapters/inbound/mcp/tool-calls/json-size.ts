/**
 * UTF-8 bytes of JSON.stringify(value), without building the JSON. A tool result carries its content
 * twice (a text block and structuredContent) and the SDK serialises it again to send it; measuring
 * by serialising would copy the content twice more. `known` gives sizes already known (a string
 * referenced twice is measured once; structured content whose JSON is a text block costs nothing).
 * Values JSON gives special treatment (toJSON, bigint) are measured by JSON.stringify itself.
 * Security: the RESULT_TOO_LARGE guard (a stdio client drops its connection over a too-large
 * message) trusts this number, so it is exact, never an estimate; the tests hold it to
 * Buffer.byteLength(JSON.stringify(value)).
 */
export function jsonByteLength(value: unknown, known: Map<unknown, number> = new Map()): number {
  return measure(value, known) ?? 0;
}

/** Strings this long are remembered by identity: the content of a result is one string sent twice. */
const REMEMBERED_STRING_LENGTH = 256;

const NULL_BYTES = 4;

/** undefined where JSON.stringify leaves the value out (undefined, a function, a symbol). */
function measure(value: unknown, known: Map<unknown, number>): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringBytes(value, known);
    case 'number':
      return Number.isFinite(value) ? String(value).length : NULL_BYTES;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      if (value === null) return NULL_BYTES;
      return known.get(value) ?? objectBytes(value, known);
    case 'bigint':
      return Buffer.byteLength(JSON.stringify(value));
    default:
      return undefined;
  }
}

function stringBytes(text: string, known: Map<unknown, number>): number {
  if (text.length < REMEMBERED_STRING_LENGTH) return Buffer.byteLength(JSON.stringify(text));
  let bytes = known.get(text);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(text));
    known.set(text, bytes);
  }
  return bytes;
}

function objectBytes(value: object, known: Map<unknown, number>): number {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return Buffer.byteLength(JSON.stringify(value));
  if (Array.isArray(value)) {
    // [a,b]: brackets, a comma between items; items JSON leaves out become null.
    let bytes = 2 + Math.max(0, value.length - 1);
    for (const item of value) bytes += measure(item, known) ?? NULL_BYTES;
    return bytes;
  }
  // {"k":v,...}: braces, a colon per member, a comma between members; members JSON leaves out are skipped.
  let bytes = 2;
  let members = 0;
  for (const key of Object.keys(value)) {
    const member = measure((value as Record<string, unknown>)[key], known);
    if (member === undefined) continue;
    bytes += stringBytes(key, known) + 1 + member;
    members += 1;
  }
  return bytes + Math.max(0, members - 1);
}
