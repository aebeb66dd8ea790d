/**
 * The `id` of a JSON-RPC request that is too large to parse, read from the bytes kept of it: its
 * start and its end. Only members of the top-level object count (an `id` inside `params` is not
 * the request's), and only members read whole; anything else gives undefined, and the error is
 * answered with id null as JSON-RPC says.
 */
export type RequestId = string | number;

export function requestIdOf(head: string, tail: string): RequestId | undefined {
  return idAmong(topLevelMembersForward(head)) ?? idAmong(topLevelMembersBackward(tail));
}

function idAmong(members: readonly string[]): RequestId | undefined {
  for (const member of members) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(`{${member}}`);
    } catch {
      continue;
    }
    const id = (parsed as Record<string, unknown>).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return undefined;
}

/** The whole `"key": value` members of the top-level object that the start of the text holds. */
function topLevelMembersForward(text: string): string[] {
  const open = text.search(/\S/);
  if (open < 0 || text[open] !== '{') return [];
  const members: string[] = [];
  let depth = 1;
  let inString = false;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        members.push(text.slice(start, i));
        break;
      }
    } else if (c === ',' && depth === 1) {
      members.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return members;
}

/**
 * The same from the end of the text, walking backwards: outside a string at the end, a quote opens or
 * closes a string unless an odd run of backslashes precedes it (JSON allows no backslash outside strings).
 */
function topLevelMembersBackward(text: string): string[] {
  let close = text.length - 1;
  while (close >= 0 && /\s/.test(text[close])) close--;
  if (close < 0 || text[close] !== '}') return [];
  const members: string[] = [];
  let depth = 1;
  let inString = false;
  let end = close;
  for (let i = close - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '"' && !escaped(text, i)) inString = !inString;
    else if (inString) continue;
    else if (c === '}' || c === ']') depth++;
    else if (c === '{' || c === '[') {
      depth--;
      if (depth === 0) {
        members.push(text.slice(i + 1, end));
        break;
      }
    } else if (c === ',' && depth === 1) {
      members.push(text.slice(i + 1, end));
      end = i;
    }
  }
  return members;
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}
