import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { PRINCIPAL_LIMIT, TOTAL_LIMIT, type Admission, type AdmissionBudget, type AdmissionLimitName } from './admission-budget.js';
import { REQUEST_TOO_LARGE_RPC_CODE, requestTooLargeMessage } from './request-size.js';

/** How long a request over the admission budget waits for room before it is refused with 503. */
export const ADMISSION_WAIT_MS = 2000;
/** What a refused client is told to wait before it retries. */
export const ADMISSION_RETRY_AFTER_SECONDS = 5;

export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The JSON-RPC error's data. */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface BodyLimits {
  /** The largest body accepted (request-size.ts). */
  readonly maxBytes: number;
  /** A body that sends nothing for this long is dropped (limits.body_idle_seconds). */
  readonly idleMs: number;
  readonly budget: AdmissionBudget;
}

// Every refusal closes the connection: the unread rest of the body would be taken for the next request on this socket.
const CLOSE = { connection: 'close' };

function tooLarge(size: number | undefined, limit: number): BodyError {
  return new BodyError(413, REQUEST_TOO_LARGE_RPC_CODE, requestTooLargeMessage(size, limit), CLOSE);
}

function overBudget(limit: AdmissionLimitName, budget: AdmissionBudget): BodyError {
  const message = `Service Unavailable: the server is reading or holding as many request bytes as ${limit} allows; nothing was done, retry shortly`;
  const data = { limit, inflight_request_bytes: budget.limits.total, inflight_request_bytes_per_principal: budget.limits.perPrincipal };
  return new BodyError(503, -32000, message, { ...CLOSE, 'retry-after': String(ADMISSION_RETRY_AFTER_SECONDS) }, data);
}

/** Grows the admission to `bytes`, waiting up to ADMISSION_WAIT_MS for room; throws the 503 (or 413 if it can never fit). */
async function admit(admission: Admission, budget: AdmissionBudget, bytes: number): Promise<void> {
  if (bytes > budget.largestAdmissible) {
    budget.refused(bytes);
    const message = `Request too large: ${bytes} bytes; the admission budget (${TOTAL_LIMIT}, ${PRINCIPAL_LIMIT}) admits at most ${budget.largestAdmissible} bytes in one request. Nothing was done; send smaller pieces.`;
    throw new BodyError(413, REQUEST_TOO_LARGE_RPC_CODE, message, CLOSE, { size: bytes, limit: budget.largestAdmissible });
  }
  const deadline = Date.now() + ADMISSION_WAIT_MS;
  for (;;) {
    const refusal = admission.growTo(bytes);
    if (refusal === undefined) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      budget.refused(bytes);
      throw overBudget(refusal, budget);
    }
    await budget.room(left);
  }
}

/**
 * The body as JSON, held against the admission budget as it arrives (all of it at once when
 * Content-Length says how much), and dropped when nothing arrives for `idleMs` (issue 33.4: a
 * chunked body that never ends was held until Node's 300 s request timeout). Read with 'data'
 * events: an async iterator costs a promise and a microtask per chunk.
 * The caller releases the admission when the request is answered.
 */
export async function readJsonBody(request: IncomingMessage, admission: Admission, limits: BodyLimits): Promise<unknown> {
  const { maxBytes, budget } = limits;
  const header = request.headers['content-length'];
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined && Number.isFinite(declared)) {
    if (declared > maxBytes) throw tooLarge(declared, maxBytes);
    // Nothing is read before the whole body fits: the client waits on TCP, not in our memory. A body
    // that fits now (nearly every one) is admitted without a wait's promise; one that cannot ever fit
    // is refused by growTo too, and admit() then says why.
    if (admission.growTo(declared) !== undefined) await admit(admission, budget, declared);
  }
  const text = await collect(request, admission, limits, declared !== undefined && Number.isFinite(declared) ? declared : undefined);
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError(400, -32700, 'Parse error: the request body is not valid JSON');
  }
}

/**
 * The body's text. With a declared length its bytes are copied into one buffer of that length as they
 * arrive and decoded once at the end, into the flat string JSON.parse needs (~75 ms for 60 MB). Decoded
 * chunk by chunk, the body was held twice on the V8 heap (the chunks' strings, then the flat copy
 * JSON.parse makes of them), and the garbage V8 lets pile up before it collects grows with what the
 * heap holds: a flood of admitted requests reached several times the admission budget in RSS.
 * A chunked body (no length) is still decoded chunk by chunk, as Buffer.concat would hold it twice.
 */
function collect(request: IncomingMessage, admission: Admission, { maxBytes, idleMs, budget }: BodyLimits, declared?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let whole = declared === undefined ? undefined : Buffer.allocUnsafeSlow(declared);
    let text = '';
    let size = 0;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', settle);
      if (error === undefined) {
        if (whole === undefined) return resolve(text + decoder.end());
        const bytes = whole;
        whole = undefined;
        // Security: only the bytes received are decoded; the rest of the unzeroed allocation is never read.
        return resolve(bytes.toString('utf8', 0, size));
      }
      request.pause();
      text = '';
      whole = undefined;
      reject(error);
    };
    // Security: a body that stops arriving holds its bytes and its admission; it is dropped, not waited for.
    // One timer a request, pushed back by each chunk (refresh), not a new one per chunk.
    const armIdle = () => {
      if (idle !== undefined) return void idle.refresh();
      idle = setTimeout(() => {
        const seconds = idleMs / 1000;
        settle(new BodyError(408, -32000, `Request Timeout: the request body sent nothing for ${seconds} s (limits.body_idle_seconds); nothing was done`, CLOSE));
      }, idleMs);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return settle(tooLarge(undefined, maxBytes));
      if (whole === undefined) text += decoder.write(chunk);
      // Node's parser ends a body at its Content-Length; a larger one could not get here.
      else chunk.copy(whole, size - chunk.length);
      if (admission.growTo(size) === undefined) return armIdle();
      // Over the budget: stop reading (the client waits on TCP) until there is room or the wait is over.
      clearTimeout(idle);
      idle = undefined;
      request.pause();
      admit(admission, budget, size).then(
        () => {
          if (settled) return;
          armIdle();
          request.resume();
        },
        settle,
      );
    };
    const onEnd = () => settle();
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', settle);
    armIdle();
  });
}
