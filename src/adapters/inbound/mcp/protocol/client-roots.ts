import 'reflect-metadata';
import { realpath, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { inject, injectable } from 'inversify';
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type InputRequiredResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TOKENS } from '../../../shared/tokens.js';
import type { AppConfig } from '../../../../config/app-config.js';
import { domainRootsOf, servedToolsets } from '../../../../config/domain-roots.js';
import { isWithin, realpathOfNearest } from '../../../../config/state-dir.js';
import { clientRootConfigs, type SharedFolder } from '../../../../config/zero-config-roots.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import type { RootsSource } from '../../../../domain/ports/roots-source.port.js';
import type { Root } from '../../../../domain/roots.js';
import type { ToolPolicy } from '../../../../domain/tool-policy.js';
import type { SessionLog } from './session-log.js';

/** roots/list's answer, any URI allowed: the SDK's schema refuses the whole list for one non-file URI, we skip that one. */
const ListedRoots = z.object({ roots: z.array(z.object({ uri: z.string() }).loose()) }).loose();

/**
 * The folders the stdio client shares (MCP roots) as this server's roots: listed after
 * notifications/initialized when the client declared the roots capability, and listed again, the
 * set replaced whole, on notifications/roots/list_changed. Only ever bound for stdio without DIR
 * arguments or a config file: over HTTP a client never chooses host paths.
 * The set lives in this instance (one per process, as stdio has one session), never in module state.
 */
@injectable()
export class ClientRoots implements RootsSource {
  private roots: readonly Root[] = [];
  /** Whether a 2026-07-28 client answered an input-required roots listing (once per process: stdio has one client). */
  private listedByRequest = false;
  /** Which listing is the latest: an older one that answers late must not replace a newer set. */
  private listing = 0;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.ToolPolicy) private readonly tools: ToolPolicy,
  ) {}

  current(): readonly Root[] {
    return this.roots;
  }

  /** Follows the client of `server` (its session's log gets the warnings that concern it). */
  attach(server: Server, log: SessionLog): void {
    server.oninitialized = () => {
      if (server.getClientCapabilities()?.roots) void this.refresh(server, log);
      else this.logger.info('the client has no roots capability: no folders to serve until the server is started with DIR arguments');
    };
    server.setNotificationHandler('notifications/roots/list_changed', () => void this.refresh(server, log));
  }

  /** Lists the client's roots and replaces the set; resolves once the new set is in place. */
  async refresh(server: Server, log: SessionLog): Promise<void> {
    const listing = ++this.listing;
    let uris: string[];
    try {
      uris = (await server.request({ method: 'roots/list' }, ListedRoots)).roots.map((root) => root.uri);
    } catch (error) {
      this.logger.warn('roots/list failed; the roots stay as they were', { error: error instanceof Error ? error.message : String(error) });
      return;
    }
    await this.replace(uris, listing, server, log);
  }

  /**
   * 2026-07-28 has no server-to-client requests: a tool call on a connection whose roots were never
   * listed asks for them in an input-required result, and the client answers by retrying the call
   * with its roots (SEP-2322). Undefined: go on with the call; otherwise the result to answer with.
   * Only when the request's envelope declares the roots capability, as roots/list needs it.
   */
  async listedForCall(server: Server, ctx: ServerContext, log: SessionLog): Promise<InputRequiredResult | undefined> {
    const envelope = ctx.mcpReq.envelope as Record<string, { roots?: unknown } | undefined> | undefined;
    if (this.listedByRequest || !envelope?.[CLIENT_CAPABILITIES_META_KEY]?.roots) return undefined;
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    // Security: the client's answer is untrusted input; it is parsed as roots/list's answer would be, and each folder confined as below.
    const parsed = ListedRoots.safeParse({ roots: answer.roots });
    this.listedByRequest = true;
    await this.replace(parsed.success ? parsed.data.roots.map((root) => root.uri) : [], ++this.listing, server, log);
    return undefined;
  }

  private async replace(uris: readonly string[], listing: number, server: Server, log: SessionLog): Promise<void> {
    const folders = await Promise.all(uris.map((uri, index) => this.folderOf(uri, index, log)));
    if (listing !== this.listing) return;
    const before = namesOf(this.roots);
    const shared = folders.filter((folder): folder is SharedFolder => folder !== undefined);
    this.roots = domainRootsOf(clientRootConfigs(shared, this.config.clientRoots?.readOnly ?? false, this.tools.catalog), this.tools.catalog, servedToolsets(this.config));
    this.logger.info('client roots', { roots: this.roots.map((root) => root.name) });
    if (namesOf(this.roots) !== before) server.sendResourceListChanged().catch(() => undefined);
  }

  /** The state and journal directories as real paths (or their nearest existing ancestor's, when not made yet). */
  private privateDirs(): string[] {
    return [this.config.stateDir, this.config.journal?.dir].filter((dir): dir is string => dir !== undefined).map(realpathOfNearest);
  }

  /**
   * The folder a root URI names, or undefined (one WARN line) for another scheme, a missing path or a
   * file. Security: the real path is resolved once, here; from then on the root is confined to it
   * exactly like a configured root. The session's log says which entry was skipped and why, not where.
   */
  private async folderOf(uri: string, index: number, log: SessionLog): Promise<SharedFolder | undefined> {
    const skip = (reason: string): undefined => {
      this.logger.warn('client root skipped', { uri: uri.slice(0, 500), reason });
      log.emit('warning', { event: 'client_root_skipped', index, reason });
      return undefined;
    };
    let named: string;
    try {
      if (!uri.startsWith('file:')) return skip('not a file:// URI');
      named = fileURLToPath(uri);
    } catch {
      return skip('not a valid file:// URI');
    }
    try {
      const realPath = await realpath(named);
      if (!(await stat(realPath)).isDirectory()) return skip('not a directory');
      // Security: a folder holding the server's private state (the journal's before-images, in-flight
      // records) or inside it would let a tool read or forge them, as a configured root would.
      if (this.privateDirs().some((dir) => isWithin(dir, realPath) || isWithin(realPath, dir))) return skip("it holds the server's private state directory");
      return { named, realPath };
    } catch {
      return skip('no such directory');
    }
  }
}

function namesOf(roots: readonly Root[]): string {
  return roots.map((root) => root.name).join('/');
}
