import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import type { Server, CompleteResult } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import { DomainError } from '../../../../domain/errors.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { CompletePath, type Completions } from '../../../../domain/tools/complete-path.js';
import { JsonRpcError } from './json-rpc-error.js';
import { RESOURCE_TEMPLATE } from './resource-handler.js';
import { INTERNAL_ERROR_TEXT, logDenial } from '../tool-calls/result-mapper.js';
import type { NotificationSender, SessionLog } from './session-log.js';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

const METHOD = 'completion/complete';

/** Any params: the SDK's own parse would answer a bad ref with -32603 and a raw schema dump. */
const ANY_PARAMS = { params: z.unknown() };

const CompleteParams = z.object({
  ref: z.object({ type: z.string(), uri: z.string().optional() }).loose(),
  argument: z.object({ name: z.string(), value: z.string() }),
  context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});

/** One session's view: whom it runs as and where its own events go. */
export interface CompletionSession {
  readonly id: string;
  readonly principal: string;
  readonly log: SessionLog;
  readonly asPrincipal: <T>(action: () => T) => T;
}

/**
 * completion/complete for the resource template mcpfs://{root}/{+path}: `root` completes root
 * names, `path` the entries of one directory (CompletePath). A path leading outside the root
 * completes nothing, and is logged as the denial it is.
 */
@injectable()
export class McpCompletionHandler {
  constructor(
    @inject(CompletePath) private readonly complete: CompletePath,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  register(server: Server, session: CompletionSession): void {
    server.setRequestHandler(METHOD, ANY_PARAMS, (params, ctx) => session.asPrincipal(() => this.answer(params, session, ctx.mcpReq.notify)));
  }

  private async answer(rawParams: unknown, session: CompletionSession, send: NotificationSender): Promise<CompleteResult> {
    const parsed = CompleteParams.safeParse(rawParams);
    if (!parsed.success) throw invalid('expected params { ref, argument: { name, value }, context? }');
    const { ref, argument, context } = parsed.data;
    if (ref.type !== 'ref/resource' || ref.uri !== RESOURCE_TEMPLATE) {
      throw invalid(`only ref { type: "ref/resource", uri: "${RESOURCE_TEMPLATE}" } completes here`);
    }
    const root = context?.arguments?.root;
    try {
      switch (argument.name) {
        case 'root':
          return answerOf(this.complete.roots(argument.value));
        case 'path':
          return answerOf(await this.complete.paths(root, argument.value));
        default:
          throw invalid(`argument must be "root" or "path", not ${JSON.stringify(argument.name.slice(0, 100))}`);
      }
    } catch (error) {
      if (error instanceof JsonRpcError) throw error;
      if (!(error instanceof DomainError)) {
        // Security: never the raw message, which may carry a host path.
        this.logger.error('unexpected error in completion', { session: session.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
        throw new JsonRpcError(ProtocolErrorCode.InternalError, INTERNAL_ERROR_TEXT);
      }
      const text = error.toClientText();
      if (error.isSecurityDenial) {
        logDenial(this.logger, METHOD, { root, path: argument.value }, error, { sessionId: session.id, principal: session.principal });
        session.log.callFailed({ tool: METHOD, code: error.code, text, denial: true }, send);
      }
      // Security: a path leading outside its root completes nothing; the client learns nothing of what lies there.
      if (error.code === 'ACCESS_DENIED') return answerOf({ values: [], total: 0, hasMore: false });
      throw JsonRpcError.invalidParams(text);
    }
  }
}

function invalid(reason: string): JsonRpcError {
  return JsonRpcError.invalidParams(`INVALID_ARGUMENT: ${METHOD}: ${reason}`);
}

function answerOf({ values, total, hasMore }: Completions): CompleteResult {
  return { completion: { values, total, hasMore } };
}
