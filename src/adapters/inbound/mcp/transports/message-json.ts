import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * The JSON of a tool result's largest parts, made once. A result whose text block is the compact
 * JSON of its structuredContent (list_folder, glob, ...) was serialised three times: the text
 * block, the measure of the message (which escapes the text), and the message itself, which
 * serialises the structured content a second time and escapes the text again. For 10,000
 * entries that is about 2 MB of JSON made twice over. A long text block of its own (view,
 * read_file) was escaped twice, for the measure and for the send. The result mapper hands over
 * what it already made; sending the message reuses it.
 */
interface KnownParts {
  /** The text block's text, compared by identity. */
  readonly text: string;
  /** JSON.stringify(text). */
  readonly textJson: string;
  readonly structured: Readonly<Record<string, unknown>>;
  /** JSON.stringify(structured) (which is `text` itself when the text block is the structured content's JSON). */
  readonly structuredJson: string;
}

/**
 * Results mapped in this turn of the event loop and not sent yet. The SDK sends a result in the same
 * turn it is mapped (its handler's promise chain, no I/O in between), so the list is emptied once the
 * turn ends: a result never sent (cancelled, or replaced by RESULT_TOO_LARGE) is not kept alive, and one
 * sent later would simply be serialised in full, which is always right.
 */
const remembered: KnownParts[] = [];
let clearScheduled = false;
const clearRemembered = () => {
  remembered.length = 0;
  clearScheduled = false;
};

export function rememberResultJson(parts: KnownParts): void {
  remembered.push(parts);
  if (clearScheduled) return;
  clearScheduled = true;
  setImmediate(clearRemembered);
}

/**
 * JSON.stringify(message), byte for byte, reusing the parts a result mapper made when the message
 * carries that very result: the same text string (identity) and a structuredContent with the same
 * keys holding the same values (the SDK's schema check hands on a shallow copy). The parts are
 * plain data nobody changes between mapping and sending.
 */
export function serializeMessage(message: JSONRPCMessage): string {
  const result = (message as { result?: unknown }).result;
  const parts = result === undefined ? undefined : takeKnownParts(result);
  if (parts === undefined) return JSON.stringify(message);
  return objectJson(message as unknown as Record<string, unknown>, (key, value) =>
    key === 'result' ? objectJson(value as Record<string, unknown>, (resultKey, resultValue) => resultPartJson(resultKey, resultValue, parts)) : undefined,
  );
}

/** JSON.stringify of a batch of messages (an array), each as serializeMessage does it. */
export function serializeMessages(messages: readonly JSONRPCMessage[]): string {
  return `[${messages.map(serializeMessage).join(',')}]`;
}

function takeKnownParts(result: unknown): KnownParts | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { content, structuredContent } = result as { content?: unknown; structuredContent?: unknown };
  if (!Array.isArray(content) || content.length !== 1 || typeof structuredContent !== 'object' || structuredContent === null) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | null;
  if (typeof block !== 'object' || block === null || typeof block.text !== 'string') return undefined;
  const keys = Object.keys(block);
  if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'text' || block.type !== 'text') return undefined;
  const index = remembered.findIndex((parts) => parts.text === block.text);
  if (index === -1) return undefined;
  const parts = remembered[index];
  if (!sameMembers(parts.structured, structuredContent as Record<string, unknown>)) return undefined;
  remembered.splice(index, 1);
  return parts;
}

/** The same own keys in the same order, each holding the very same value. */
function sameMembers(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  return keys.every((key, index) => others[index] === key && a[key] === b[key]);
}

function resultPartJson(key: string, value: unknown, parts: KnownParts): string | undefined {
  if (key === 'content') return `[{"type":"text","text":${parts.textJson}}]`;
  if (key === 'structuredContent') return parts.structuredJson;
  return undefined;
}

/**
 * `{"k":v,...}` as JSON.stringify writes it, with `special` giving the JSON of some members (undefined: the usual).
 * Made with `+`, not a join: V8 then keeps the result as a rope over the parts (a result's text and structured
 * JSON, a megabyte each for a large listing) and copies them once, when the message is written, not once per
 * level of nesting.
 */
function objectJson(value: Record<string, unknown>, special: (key: string, value: unknown) => string | undefined): string {
  let json = '{';
  for (const key of Object.keys(value)) {
    const member = special(key, value[key]) ?? JSON.stringify(value[key]);
    // JSON.stringify leaves out members whose value has no JSON (undefined, a function, a symbol).
    if (member === undefined) continue;
    json += (json.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + member;
  }
  return json + '}';
}
