import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Node <-> web bridge for the SDK's per-request handler, leaner than the SDK's toNodeHandler
 * on the two costs its profile shows for a 4 KB read: the request carries no body (the endpoint
 * already holds it parsed and hands it over as `parsedBody`, so the SDK never reads it; toNodeHandler
 * re-serialises it into the Request), and a JSON answer leaves in one write with its length
 * instead of a chunked stream pulled chunk by chunk. SSE answers still stream, with backpressure.
 */
// Node 20 defines these globals as lazy getters that cost ~0.1 ms an access under load: read them once.
const { Headers: WebHeaders, Request: WebRequest } = globalThis;

export function toBodylessWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new WebHeaders();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    // The request is handed over without its body: entity headers describing the raw bytes would lie.
    if (name === 'content-length' || name === 'transfer-encoding' || name === 'content-encoding') continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  // Security: the Host/Origin guard has already accepted this host; it only shapes the URL the SDK sees.
  const host = req.headers.host ?? 'localhost';
  return new WebRequest(`http://${host}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, signal });
}

/** Writes a web Response to a Node response; `closed` aborts an SSE stream whose client went away. */
export async function writeWebResponse(response: Response, res: ServerResponse, closed: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  const streaming = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
  if (response.body === null || !streaming) {
    const bytes = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
    if (bytes) headers['content-length'] = String(bytes.length);
    res.writeHead(response.status, headers);
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  const gone = new Promise<void>((resolve) => closed.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for await (const chunk of response.body) {
      if (closed.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // The stream was cancelled upstream: the abort already ended the exchange.
  }
  res.end();
}
