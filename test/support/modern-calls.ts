import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** A v2 SDK client pinned to 2026-07-28 over Streamable HTTP (connect() fails against a 2025-only server), with a bearer token when given. */
export async function modernHttpClient(url: string, bearer?: string, name = 'modern-test'): Promise<ModernClient> {
  const client = new ModernClient({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const requestInit = bearer === undefined ? undefined : { headers: { authorization: `Bearer ${bearer}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

export interface ModernOutcome {
  readonly isError: boolean;
  /** The first text block: the result or the `CODE: message` of an error. */
  readonly text: string;
  /** Every text block, the handle note last when there is one. */
  readonly texts: readonly string[];
  readonly structured?: Record<string, unknown>;
}

/** One tools/call through a v2 client, reduced to what the state-handle tests look at. */
export async function modernCall(client: ModernClient, name: string, args: Record<string, unknown>): Promise<ModernOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const texts = (result.content as { type: string; text?: string }[]).filter((block) => block.type === 'text').map((block) => block.text ?? '');
  return { isError: result.isError === true, text: texts[0] ?? '', texts, structured: result.structuredContent as Record<string, unknown> | undefined };
}

/** The handle a successful or refused editor call carried back (structured field, else the last text block). */
export function handleOf(outcome: ModernOutcome): string {
  const fromText = /^handle: (h_[A-Za-z0-9_-]+)/.exec(outcome.texts.at(-1) ?? '')?.[1];
  const handle = (outcome.structured?.handle as string | undefined) ?? fromText;
  if (handle === undefined) throw new Error(`no handle in: ${outcome.texts.join(' | ')}`);
  return handle;
}

/** One raw 2026-07-28 POST the way the official conformance suite sends it (standard headers from the body; `headers` override them). */
export function postModern(url: string, method: string, params: Record<string, unknown>, id: number, headers: Record<string, string> = {}): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
}

/** A 2026-07-28 envelope that the fast path may answer (no roots, no elicitation, no log level), for `client`. */
export function fastCallEnvelope(client: string, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: client, version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** The same envelope sent the SDK's way: a log level does it; at `emergency` no failure log is ever streamed ahead of the answer. */
export const sdkPathEnvelope = (envelope: Record<string, unknown>) => ({ ...envelope, 'io.modelcontextprotocol/logLevel': 'emergency' });

export interface ModernAnswer<Body = unknown> {
  readonly status: number;
  readonly type: string | null;
  readonly body: Body;
}

/** One raw modern tools/call, reduced to what comparing the fast path with the SDK's looks at. */
export async function postToolCall<Body = unknown>(url: string, params: Record<string, unknown>, id: number, headers: Record<string, string> = {}): Promise<ModernAnswer<Body>> {
  const response = await postModern(url, 'tools/call', params, id, headers);
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Body };
}
