import 'reflect-metadata';
import { inject, injectable, multiInject, optional } from 'inversify';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult, ClientCapabilities, InputRequiredResult, ListToolsResult, ProgressNotification } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import { MCP_TOKENS } from '../mcp-tokens.js';
import { readPackageJson } from '../../../../config/package-info.js';
import type { PathPolicy } from '../../../../domain/path-policy.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';
import { ToolPolicy } from '../../../../domain/tool-policy.js';
import { AsyncLocalChangeAuthor } from '../tool-calls/call-author.js';
import { type CallAsker, canAskInForm, type ElicitingAsker, ElicitingConfirmation } from '../tool-calls/call-confirmation.js';
import { type ConfirmationRound, ConfirmationRounds } from '../tool-calls/confirmation-rounds.js';
import { AsyncLocalPrincipalContext } from './call-principal.js';
import { withUndoNotes } from '../tool-calls/undo-notes.js';
import { startCallWork } from './call-work.js';
import { HandlerEndsServer } from './handler-ends.js';
import { isModernRevision } from './protocol-era.js';
import { CACHE_HINTS } from './cache-hints.js';
import { ClientRoots } from './client-roots.js';
import { McpCompletionHandler } from './completions.js';
import { McpResourceHandler } from './resource-handler.js';
import { APPS_EXTENSION, McpAppResources } from './app-resources.js';
import { McpSubscriptionHandler } from './subscriptions.js';
import { type FailedCall, requestFailureLog, SessionLog } from './session-log.js';
import type { ToolCallObserver } from '../../../shared/metrics.port.js';
import { invokeTool, rejectCall, rejectTool } from '../tool-calls/result-mapper.js';
import { DomainError } from '../../../../domain/errors.js';
import { type CallState, StateHandles, withHandle } from './state-handles.js';
import type { ToolDefinition } from '../tool-calls/tool-definition.js';
import { prepareTool, type PreparedTool } from '../tool-calls/tool-schemas.js';

const packageJson = readPackageJson();

export const SERVER_NAME = 'mcp-filesystem';
const SERVER_VERSION = packageJson.version;
/** The identity every Server of ours states (the modern fast path stamps it on its results as the SDK does). */
export const SERVER_INFO = { name: SERVER_NAME, version: SERVER_VERSION };

const INSTRUCTIONS =
  'File and folder tools confined to named roots. Call list_roots first: every root-scoped tool takes ' +
  '`root` (a configured root name) and a path inside it, and each root allows only some tools. ' +
  'The editor and repo tools (view, str_replace, create_file, file_read, file_write, file_list) take one ' +
  'path instead, in a namespace where each root is a top-level folder (/workspace/src/main.go); relative ' +
  'paths start from the session working directory, which change_directory moves. str_replace and ' +
  'create_file over an existing file need a view of that file first. Without a session (MCP 2026-07-28) an editor ' +
  'result carries a `handle`: pass it back as `handle` to keep your views and working directory.';

/** What a tools/call needs of the request it answers, whether a session's Server or the modern fast path serves it. */
interface ToolCallEnv {
  readonly sessionId: string;
  readonly principal: Principal;
  readonly modern: boolean;
  readonly signal: AbortSignal;
  readonly onFailure: (failure: FailedCall) => void;
  readonly sendProgress: (params: ProgressNotification['params']) => Promise<void>;
  /** 2026-07-28 with client roots: the input-required result asking for them, when the call must wait for them. */
  readonly askRoots?: () => Promise<InputRequiredResult | undefined>;
  /** The session client's elicitation capability (2025-era only). */
  readonly elicitation?: ClientCapabilities['elicitation'];
  readonly elicit: ElicitingAsker['elicit'];
  /** 2026-07-28 with form elicitation in the request's `_meta`: opens this call's input-required round. */
  readonly openRound?: (subject: { principal: string; tool: string; args: Record<string, unknown> }) => Promise<ConfirmationRound>;
}

/** A direct call's request: whose, under which session or request scope, and where its failures are logged. */
export type DirectCall = Pick<ToolCallEnv, 'sessionId' | 'principal' | 'modern' | 'signal' | 'onFailure'> & {
  /** A 2026-07-28 envelope declares roots: the call may have to ask for them, which only the SDK's path does. */
  readonly declaresRoots: boolean;
  /** A 2026-07-28 envelope's elicitation capability: in form, a writing call may open a confirmation round, which only the SDK's path does. */
  readonly envelopeElicitation?: unknown;
};

/**
 * One MCP Server per session, serving every tool bound to MCP_TOKENS.ToolDefinition. tools/list
 * and tools/call are answered here rather than by the SDK's McpServer, which would reject bad
 * arguments in its own words before our code (and the call log, NFR-017) ever saw the call.
 */
@injectable()
export class McpServerFactory {
  private readonly tools: ReadonlyMap<string, PreparedTool>;
  /** Built on the first tools/list: converting every schema to JSON Schema is start-up time a first call need not wait for. */
  private listing?: ListToolsResult['tools'];
  /** Input-required questions for 2026-07-28 clients; their requestState key lives as long as this process. */
  private readonly rounds?: ConfirmationRounds;

  constructor(
    @multiInject(MCP_TOKENS.ToolDefinition) @optional() definitions: ToolDefinition[] | undefined,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(MCP_TOKENS.PrincipalContext) private readonly principals: AsyncLocalPrincipalContext,
    @inject(TOKENS.Metrics) @optional() private readonly observer?: ToolCallObserver,
    @inject(McpResourceHandler) @optional() private readonly resources?: McpResourceHandler,
    @inject(TOKENS.PathPolicy) @optional() private readonly paths?: PathPolicy,
    @inject(MCP_TOKENS.ChangeAuthors) @optional() private readonly authors?: AsyncLocalChangeAuthor,
    @inject(McpCompletionHandler) @optional() private readonly completions?: McpCompletionHandler,
    @inject(ClientRoots) @optional() private readonly clientRoots?: ClientRoots,
    @inject(McpSubscriptionHandler) @optional() private readonly subscriptions?: McpSubscriptionHandler,
    @inject(StateHandles) @optional() private readonly handles?: StateHandles,
    @inject(MCP_TOKENS.Confirmation) @optional() private readonly confirmation?: ElicitingConfirmation,
    @inject(McpAppResources) @optional() private readonly apps?: McpAppResources,
    @inject(TOKENS.ToolPolicy) @optional() private readonly toolPolicy?: ToolPolicy,
  ) {
    const tools = new Map<string, PreparedTool>();
    for (const definition of withUndoNotes(definitions ?? [], authors !== undefined)) {
      if (tools.has(definition.name)) throw new Error(`two tool definitions are named ${definition.name}`);
      tools.set(definition.name, prepareTool(definition));
    }
    this.tools = tools;
    if (confirmation) this.rounds = new ConfirmationRounds(Math.ceil(confirmation.timeoutMs / 1000));
  }

  /**
   * Security: the session's principal is fixed here, when the session opens; every tool call
   * of the session runs with its grant (roots, read-only), whatever a later request carries.
   */
  create(sessionId: string, principal: Principal = UNRESTRICTED_PRINCIPAL): HandlerEndsServer {
    const server = new HandlerEndsServer(
      { name: SERVER_NAME, version: SERVER_VERSION },
      {
        capabilities: {
          tools: {},
          logging: {},
          ...(this.resources ? { resources: { listChanged: true, ...(this.subscriptions ? { subscribe: true } : {}) } } : this.apps ? { resources: {} } : {}),
          ...(this.completions ? { completions: {} } : {}),
          // MCP Apps: review_changes links a UI resource that hosts which render apps show.
          ...(this.apps ? { extensions: { [APPS_EXTENSION]: {} } } : {}),
        },
        instructions: INSTRUCTIONS,
        cacheHints: CACHE_HINTS,
      },
    );
    const log = SessionLog.attach(server);
    const asPrincipal = <T>(action: () => T): T => this.principals.run(principal, action);
    if (this.resources) this.resources.register(server, sessionId, asPrincipal, this.apps);
    else this.apps?.register(server);
    this.completions?.register(server, { id: sessionId, principal: principal.name, log, asPrincipal });
    this.clientRoots?.attach(server, log);
    this.subscriptions?.register(server, sessionId, principal.name, asPrincipal);
    server.setRequestHandler('tools/list', () => {
      this.listing ??= [...this.tools.values()].map((tool) => tool.listing);
      return { tools: this.listing.filter((tool) => this.usable(tool.name, principal)) };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      // A failure reaches the session's log on the call's own stream, ahead of the answer.
      const modern = isModernRevision(server.getNegotiatedProtocolVersion());
      const onFailure = modern
        ? requestFailureLog(ctx.mcpReq.log)
        : (failure: FailedCall) => log.callFailed(failure, ctx.mcpReq.notify);
      return this.callTool(request.params, {
        sessionId,
        principal,
        modern,
        signal: ctx.mcpReq.signal,
        onFailure,
        sendProgress: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
        askRoots: modern && this.clientRoots ? () => this.clientRoots!.listedForCall(server, ctx, log) : undefined,
        elicitation: modern ? undefined : server.getClientCapabilities()?.elicitation,
        elicit: (params, options) => ctx.mcpReq.elicitInput(params, options),
        openRound:
          modern && this.rounds && canAskInForm((ctx.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY]?.elicitation)
            ? (subject) => this.rounds!.open(ctx, subject)
            : undefined,
      });
    });
    return server;
  }

  /**
   * A call answered without the SDK's per-request machinery (the fast paths of modern HTTP and stdio,
   * see modern-fast-call.ts and stdio-fast-call.ts): undefined when the call needs more than a plain
   * answer (unknown or unlisted tools, client roots to ask for, a person to ask), and the SDK must serve it.
   * Writing tools go direct only on 2026-07-28 when the client declares no form elicitation (or confirm
   * is off): there the SDK's path opens no round either, so both run callTool with the same environment
   * (the journal's author, the change feed, the call log and metrics are all below it).
   */
  directCall(params: CallToolRequest['params'], call: DirectCall): Promise<CallToolResult | InputRequiredResult> | undefined {
    const tool = this.tools.get(params.name);
    if (!tool || (call.declaresRoots && this.clientRoots) || !this.usable(params.name, call.principal)) return undefined;
    // A 2025-era session may be asked by elicitation (a server-to-client request only the SDK's session sends).
    if (!tool.definition.annotations.readOnlyHint && (!call.modern || (this.rounds && canAskInForm(call.envelopeElicitation)))) return undefined;
    // No progress token reaches here, and no call here asks its person anything.
    const { envelopeElicitation: _unused, ...env } = call;
    return this.callTool(params, { ...env, sendProgress: () => Promise.resolve(), elicit: () => Promise.reject(new Error('no elicitation on a direct call')) });
  }

  /** tools/call, for a session's Server or a direct modern call. */
  private async callTool(request: CallToolRequest['params'], env: ToolCallEnv): Promise<CallToolResult | InputRequiredResult> {
    const { sessionId, principal, modern, onFailure } = env;
    const { name, arguments: args } = request;
    const tool = this.tools.get(name);
    const context = { sessionId, principal: principal.name };
    if (!tool) return this.principals.run(principal, () => rejectTool(name, 'unknown', context, this.logger, this.observer, onFailure));
    // A tool this session was not offered is still a tool: TOOL_NOT_ALLOWED, never "unknown tool".
    if (!this.usable(name, principal)) {
      return this.principals.run(principal, () => rejectTool(name, 'unlisted', context, this.logger, this.observer, onFailure));
    }
    if (env.askRoots) {
      const asked = await env.askRoots();
      if (asked) return asked;
    }
    let state: CallState = { sessionId };
    let callArgs = args ?? {};
    const use = tool.definition.stateHandle;
    if (use && this.handles) {
      const { handle, ...rest } = callArgs;
      callArgs = rest;
      try {
        state = await this.handles.stateFor(handle, principal.name, { modern, sessionId, use });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return this.principals.run(principal, () => rejectCall(name, name, error, context, this.logger, this.observer, onFailure));
      }
    }
    // Before a change that cannot be taken back, this call's person is asked (issue 30.3), in the client's era.
    let asker: CallAsker | undefined;
    let round: ConfirmationRound | undefined;
    if (this.confirmation && !tool.definition.annotations.readOnlyHint) {
      if (env.openRound) {
        try {
          asker = round = await env.openRound({ principal: principal.name, tool: name, args: args ?? {} });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return this.principals.run(principal, () => rejectCall(name, name, error, context, this.logger, this.observer, onFailure));
        }
      } else if (!modern && canAskInForm(env.elicitation)) {
        asker = { kind: 'elicit', elicit: env.elicit, signal: env.signal };
      }
    }
    const call = startCallWork({ signal: env.signal, progressToken: request._meta?.progressToken, sendProgress: env.sendProgress });
    try {
      // With the journal on, every change the call makes is recorded under its principal, session and tool.
      // A read-only tool makes none (its readOnlyHint is what --read-only trusts too), so it is not named
      // an author: calls in flight together would each take an AsyncLocalStorage store, and its promise
      // hooks, once on, cost every promise of every call after (a sixth of 50 reads in flight over stdio).
      const authors = tool.definition.annotations.readOnlyHint ? undefined : this.authors;
      const author = { principal: principal.name, session: state.sessionId, tool: name };
      const undoReach = authors ? () => authors.reachOf(author) : undefined;
      const callContext = { ...context, sessionId: state.sessionId, work: call.work, undoReach };
      const invoke = () => invokeTool(tool, callArgs, callContext, this.logger, this.observer, onFailure);
      const journaled = authors ? () => authors.run(author, principal === UNRESTRICTED_PRINCIPAL, invoke) : invoke;
      const asPrincipal = () => this.principals.run(principal, journaled);
      const result = await (this.confirmation ? this.confirmation.run(asker, asPrincipal) : asPrincipal());
      // A question deferred to the client (2026-07-28): nothing more was changed; the client retries with the answer.
      const asked = round ? await this.rounds?.inputRequiredOf(round) : undefined;
      return asked ?? withHandle(result, state);
    } finally {
      call.stop();
    }
  }

  /**
   * Whether some root the principal sees (its grant, read-only narrowing and the allowlists) allows the
   * tool. Asked per request, so roots that change during a session are seen as they are now.
   */
  private usable(name: string, principal: Principal): boolean {
    // Until a client shares folders there is no root to judge by: tools/list is the same as usual, and
    // each call answers NO_ROOTS.
    // (The container binds the tool policy with the roots: no roots, no policy.)
    if (!this.paths || !this.toolPolicy || !this.paths.anyRoots()) return true;
    const { paths, toolPolicy } = this;
    return this.principals.run(principal, () => toolPolicy.usableSomewhere(name, paths.roots));
  }
}
