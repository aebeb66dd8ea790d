import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Container } from 'inversify';
import { HttpServer } from '../../src/adapters/inbound/http/http-app.js';
import { buildContainer, type ContainerOverrides } from '../../src/composition/container.js';
import type { AppConfig, AuthConfig, ConfirmConfig, JournalConfig, SessionLimits } from '../../src/config/app-config.js';
import { defaultSessionLimits, defaultSettings } from '../../src/config/schema.js';
import type { Settings } from '../../src/domain/settings.js';
import { RecordingLogger } from './recording-logger.js';

export interface TestRootOptions {
  readonly name: string;
  readonly allowedTools?: readonly string[];
  /** An existing directory to serve (another test server's root, as a second replica would); kept by stop(). Default: a fresh temp dir. */
  readonly path?: string;
}

export interface TestServerOptions {
  /** Default: one root 'workspace' allowing every tool. Each root gets a fresh temp dir. */
  readonly roots?: readonly TestRootOptions[];
  readonly settings?: Partial<Settings>;
  /** Idle timeout and caps (default: the config defaults). */
  readonly sessions?: Partial<SessionLimits>;
  /** Swap adapters, e.g. { fileSystem: new InMemoryFileSystem() }; the logger defaults to a RecordingLogger. */
  readonly overrides?: ContainerOverrides;
  /** Runs on the built container before the server starts: bind an extra listener, keep a service to inspect. */
  readonly configure?: (container: Container) => void;
  /** HTTP authentication; default none (loopback). */
  readonly auth?: AuthConfig;
  /** GET /metrics; default enabled. */
  readonly metrics?: { readonly enabled: boolean };
  /**
   * The change journal; default on, as in production (issue 20: every security, race and DoS
   * property holds with it on), in a fresh private directory outside every root, removed by stop().
   * `false` turns it off: a test that does so says why.
   */
  readonly journal?: JournalConfig | boolean;
  /** resources/subscribe limits; default 256 a session. */
  readonly subscriptions?: { readonly maxPerSession: number };
  /** limits.watches and limits.watches_per_principal (0: derived); default both derived from the OS limit. */
  readonly watches?: AppConfig['watches'];
  /** session_store.url: a Redis shared with other servers (sessions and the change feed); default none. */
  readonly sessionStoreUrl?: string;
  /** confirm.enabled and confirm.timeout_s; default on, 120 s. */
  readonly confirm?: ConfirmConfig;
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** baseUrl + '/mcp' */
  readonly url: string;
  readonly config: AppConfig;
  /** What the server logged (unless options.overrides.logger replaced it). */
  readonly logger: RecordingLogger;
  /** The host directory of a root, for seeding fixtures with node:fs. */
  rootPath(name: string): string;
  /** An SDK Client connected over Streamable HTTP (with `Authorization: Bearer token` when given); closed by stop(). */
  connect(options?: { bearer?: string }): Promise<Client>;
  /** Closes clients and sessions, stops the HTTP server, deletes the temp dirs. */
  stop(): Promise<void>;
}

/** The real server (same container and start-up as main.ts) on 127.0.0.1 and a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const rootOptions = options.roots ?? [{ name: 'workspace' }];
  const roots = await Promise.all(
    rootOptions.map(async (root) => ({
      name: root.name,
      path: root.path ?? (await realpath(await mkdtemp(join(tmpdir(), `mcp-fs-${root.name}-`)))),
      allowedTools: [...(root.allowedTools ?? ['*'])],
    })),
  );
  const journalBase = (options.journal ?? true) === true ? await mkdtemp(join(tmpdir(), 'mcp-fs-journal-')) : undefined;
  const journal: JournalConfig | undefined =
    journalBase === undefined
      ? (typeof options.journal === 'object' ? options.journal : undefined)
      : { dir: join(journalBase, 'journal'), maxBytes: 64 * 1024 * 1024, maxFileBytes: 16 * 1024 * 1024, retentionHours: 168 };
  const config: AppConfig = {
    host: '127.0.0.1',
    port: 0,
    allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
    logLevel: 'error',
    settings: { ...defaultSettings(roots[0].name), ...options.settings },
    sessions: { ...defaultSessionLimits(), ...options.sessions },
    sessionStoreUrl: options.sessionStoreUrl ?? '',
    roots,
    auth: options.auth,
    metrics: options.metrics,
    journal,
    confirm: options.confirm,
    subscriptions: options.subscriptions,
    watches: options.watches,
  };
  const logger = new RecordingLogger();
  const container = buildContainer(config, { logger, ...options.overrides });
  options.configure?.(container);
  const http = container.get(HttpServer);
  const { baseUrl } = await http.start();
  const clients: Client[] = [];

  return {
    baseUrl,
    url: `${baseUrl}/mcp`,
    config,
    logger,
    rootPath(name) {
      const root = roots.find((candidate) => candidate.name === name);
      if (!root) throw new Error(`no test root named ${name}`);
      return root.path;
    },
    async connect(connectOptions = {}) {
      const client = new Client({ name: 'mcp-filesystem-tests', version: '1.0.0' });
      const requestInit = connectOptions.bearer === undefined ? undefined : { headers: { Authorization: `Bearer ${connectOptions.bearer}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit }));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await http.stop();
      const own = roots.filter((_root, index) => rootOptions[index].path === undefined);
      await Promise.all(own.map((root) => rm(root.path, { recursive: true, force: true })));
      if (journalBase !== undefined) await rm(journalBase, { recursive: true, force: true });
    },
  };
}
