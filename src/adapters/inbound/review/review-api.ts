import 'reflect-metadata';
import Router from '@koa/router';
import type Koa from 'koa';
import { inject, injectable, optional } from 'inversify';
import { z } from 'zod';
import { ListChanges, MAX_LIST_LIMIT } from '../../../domain/changes/list-changes.js';
import { MAX_SELECTED, UndoChanges } from '../../../domain/changes/undo-changes.js';
import { DomainError, type ErrorCode } from '../../../domain/errors.js';
import type { ChangeFeed } from '../../../domain/ports/change-feed.port.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../domain/principal.js';
import { TOKENS } from '../../shared/tokens.js';
import { principalOf } from '../http/auth/bearer-middleware.js';
import type { AsyncLocalChangeAuthor } from '../mcp/tool-calls/call-author.js';
import type { AsyncLocalPrincipalContext } from '../mcp/protocol/call-principal.js';
import { MCP_TOKENS } from '../mcp/mcp-tokens.js';
import { ChangeStream } from './change-stream.js';
import { readSmallJson } from './small-json.js';

export const REVIEW_API_PATH = '/changes/api';
/** The session an undo made from the page is journaled under (its undos' "undone by session ..."). */
export const REVIEW_SESSION = 'changes-page';
/** Live streams one principal may hold open at once (tabs of the page), on this replica. */
export const MAX_STREAMS_PER_PRINCIPAL = 8;

const STATUS: Partial<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  INVALID_ARGUMENT: 400,
  UNKNOWN_ROOT: 404,
  INVALID_PATH: 400,
  ACCESS_DENIED: 403,
  TOOL_NOT_ALLOWED: 403,
  NO_ROOTS: 409,
};

const listQuery = z.object({
  root: z.string().max(4096).optional(),
  path: z.string().max(4096).optional(),
  session: z.string().max(256).optional(),
  since_id: z.string().max(64).optional(),
  before_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).optional(),
});

const undoBody = z.strictObject({
  ids: z.array(z.string().max(64)).min(1).max(MAX_SELECTED).optional(),
  root: z.string().max(4096).optional(),
  path: z.string().max(4096).optional(),
  since_id: z.string().max(64).optional(),
  dry_run: z.boolean().optional(),
  force: z.boolean().optional(),
});

/**
 * The JSON API behind the /changes page (issue 30 §2): list, one change with its diff, undo (and its
 * dry run), and a live stream of new changes. Each runs the journal's own use cases as the request's
 * principal, exactly as list_changes and undo_changes do in a tool call: the same filtering (only that
 * principal's changes, on the roots it may use) and the same results.
 */
@injectable()
export class ReviewApi {
  /** Open live streams by principal name. */
  private readonly streams = new Map<string, number>();

  constructor(
    @inject(MCP_TOKENS.PrincipalContext) private readonly principals: AsyncLocalPrincipalContext,
    @inject(TOKENS.ChangeFeed) private readonly feed: ChangeFeed,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ListChanges) @optional() private readonly listChanges?: ListChanges,
    @inject(UndoChanges) @optional() private readonly undoChanges?: UndoChanges,
    @inject(MCP_TOKENS.ChangeAuthors) @optional() private readonly authors?: AsyncLocalChangeAuthor,
  ) {}

  /**
   * Mount behind the Host/Origin guard and the bearer guard: every route reads the principal the guard set.
   * Security: with auth on, no request reaches a route without one; with auth none every caller is the
   * local operator (UNRESTRICTED_PRINCIPAL), as on /mcp.
   */
  router(pollMs?: number): Router {
    const router = new Router({ prefix: REVIEW_API_PATH });
    router.get('/changes', (ctx) => this.answer(ctx, async (list) => {
      const query = listQuery.parse(ctx.query);
      const { session, ...filters } = query;
      // A session filter is list_changes' session "this" as seen from that session.
      return list.execute({ ...filters, limit: query.limit ?? MAX_LIST_LIMIT, session: session === undefined ? 'all' : 'this' }, session ?? REVIEW_SESSION);
    }));
    router.get('/changes/:id', (ctx) => this.answer(ctx, async (list) => ({ change: await list.one(ctx.params.id) })));
    router.post('/undo', (ctx) => this.answer(ctx, async (_list, undo) => {
      // Security: JSON only. A cross-site form can post urlencoded, multipart or text/plain bodies
      // without a preflight, never application/json; with auth on, the Authorization header (which
      // no form can set) is required as well, by the guard in front.
      if (!ctx.is('application/json')) throw new DomainError('INVALID_ARGUMENT', 'undo: send the selection as application/json');
      const body = undoBody.parse(await readSmallJson(ctx.req));
      return this.undo(principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL, undo, body);
    }));
    router.get('/events', (ctx) => {
      const list = this.listChanges;
      if (list === undefined) return this.journalOff(ctx);
      const principal = principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL;
      // Security: each stream holds a connection and asks the journal on every change and poll; a principal gets a few.
      const open = this.streams.get(principal.name) ?? 0;
      if (open >= MAX_STREAMS_PER_PRINCIPAL) return this.refuse(ctx, 429, 'TOO_MANY_STREAMS', `at most ${MAX_STREAMS_PER_PRINCIPAL} open change streams per principal; close a /changes tab`);
      this.streams.set(principal.name, open + 1);
      ctx.res.once('close', () => {
        const left = (this.streams.get(principal.name) ?? 1) - 1;
        if (left === 0) this.streams.delete(principal.name);
        else this.streams.set(principal.name, left);
      });
      const sinceId = typeof ctx.query.since_id === 'string' ? ctx.query.since_id : undefined;
      const newer = (since: string | undefined) =>
        this.principals.run(principal, () => list.execute(since === undefined ? { limit: 1 } : { since_id: since, limit: MAX_LIST_LIMIT }, REVIEW_SESSION));
      new ChangeStream(this.feed, newer, this.logger, pollMs).serve(ctx, sinceId);
    });
    return router;
  }

  private async undo(principal: Principal, undo: UndoChanges, body: z.infer<typeof undoBody>) {
    const { dry_run: dryRun, ...selection } = body;
    const input = { ...selection, dry_run: dryRun, session: 'all' as const };
    const run = () => undo.execute(input, REVIEW_SESSION);
    // Like a tool call: the undo's own writes are journaled as a change of this principal (undo_changes, the page's session).
    const author = { principal: principal.name, session: REVIEW_SESSION, tool: 'undo_changes' };
    const journaled = dryRun || this.authors === undefined ? run : () => this.authors!.run(author, principal === UNRESTRICTED_PRINCIPAL, run);
    const answer = await this.principals.run(principal, journaled);
    this.logger.info('changes page undo', {
      principal: principal.name,
      root: body.root,
      path: body.path ?? (body.ids ? `ids ${body.ids.join(',')}` : `since ${body.since_id}`),
      dry_run: dryRun === true,
      force: body.force === true,
      outcomes: answer.results.map((result) => result.outcome).join(','),
    });
    return answer;
  }

  /** Runs one API call; a DomainError (or a bad argument) answers as JSON, named by code. Anything else is the app's 500. */
  private async answer(ctx: Koa.Context, action: (list: ListChanges, undo: UndoChanges) => Promise<object>): Promise<void> {
    const { listChanges: list, undoChanges: undo } = this;
    if (list === undefined || undo === undefined) return this.journalOff(ctx);
    ctx.set('Cache-Control', 'no-store');
    try {
      ctx.body = await this.principals.run(principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL, () => action(list, undo));
    } catch (error) {
      if (error instanceof z.ZodError) return this.refuse(ctx, 400, 'INVALID_ARGUMENT', error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
      if (!(error instanceof DomainError)) throw error;
      // Security: the message names root and in-root path only (DomainError's contract), never a host path.
      this.refuse(ctx, STATUS[error.code] ?? 409, error.code, error.message);
    }
  }

  private journalOff(ctx: Koa.Context): void {
    this.refuse(ctx, 404, 'NOT_FOUND', 'the change journal is off (journal.enabled) or the changes toolset is not served: there are no changes to review');
  }

  private refuse(ctx: Koa.Context, status: number, code: string, message: string): void {
    ctx.status = status;
    ctx.body = { error: { code, message } };
  }
}
