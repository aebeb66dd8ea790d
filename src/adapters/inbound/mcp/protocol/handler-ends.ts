import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import type { RequestId } from '../transports/request-id-scan.js';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * A Server that tells its transport when each request's handler has ended, however it ended. The
 * SDK sends nothing for a handler whose request was cancelled, so without this a transport holding
 * the request's bytes till its answer (stdio, issue 27.5) would hold them till the connection
 * closes. Told only once the handler settles: until then it may still hold the request's memory.
 */
export class HandlerEndsServer extends Server {
  /** Called after a request's handler settles (answered or not); set by the transport's owner. */
  onHandlerEnd?: (id: RequestId) => void;

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } finally {
        this.onHandlerEnd?.(request.id);
      }
    };
  }
}
