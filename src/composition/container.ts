import 'reflect-metadata';
import { Container } from 'inversify';
import { McpHttpEndpoint } from '../adapters/inbound/mcp/http-transport.js';
import { AsyncLocalPrincipalContext } from '../adapters/inbound/mcp/call-principal.js';
import { McpServerFactory } from '../adapters/inbound/mcp/server-factory.js';
import { SessionRegistry } from '../adapters/inbound/mcp/session-registry.js';
import { StdioServer } from '../adapters/inbound/mcp/stdio-transport.js';
import { HttpAuthentication } from '../adapters/inbound/http/auth/http-authentication.js';
import { HttpServer } from '../adapters/inbound/http/http-app.js';
import { NodeContentHasher } from '../adapters/outbound/node-content-hasher.js';
import { InMemorySessionState } from '../adapters/outbound/in-memory-session-state.js';
import { RedisSessionState } from '../adapters/outbound/redis-session-state.js';
import type { SessionStateStore } from '../adapters/outbound/session-state-store.js';
import { NodeFileSystem } from '../adapters/outbound/node-file-system.js';
import { PrometheusMetrics } from '../adapters/outbound/prometheus-metrics.js';
import { Re2RegexEngine } from '../adapters/outbound/re2-regex-engine.js';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import { WinstonLogger } from '../adapters/outbound/winston-logger.js';
import type { AppConfig } from '../config/app-config.js';
import { PathPolicy } from '../domain/path-policy.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import type { Logger } from '../domain/ports/logger.port.js';
import type { Root } from '../domain/roots.js';
import { RootAccess } from '../domain/tools/root-access.js';
import { ToolPolicy } from '../domain/tool-policy.js';
import { TOOLSETS, toolsetOf, type Toolset } from '../domain/tool-names.js';
import { toolFamilyModules } from './modules/index.js';
import { TOKENS } from './tokens.js';

/** Adapters a caller (a test, another deployment) may swap; each swap is one binding. */
export interface ContainerOverrides {
  readonly fileSystem?: FileSystemPort;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

function rootsOf(config: AppConfig): Root[] {
  const enabled = new Set<Toolset>(config.toolsets ?? TOOLSETS);
  return config.roots.map((root) => ({
    name: root.name,
    hostPath: root.path,
    // A tool of a disabled toolset is not served, so no root claims to allow it.
    allowedTools: new Set([...ToolPolicy.expand(root.allowedTools)].filter((tool) => enabled.has(toolsetOf(tool) ?? 'root'))),
    configuredTools: [...root.allowedTools],
  }));
}

/** The composition root: the only place that knows every class. */
export function buildContainer(config: AppConfig, overrides: ContainerOverrides = {}): Container {
  const container = new Container({ defaultScope: 'Singleton' });

  container.bind(TOKENS.Config).toConstantValue(config);
  container.bind(TOKENS.Settings).toConstantValue(config.settings);
  const principals = new AsyncLocalPrincipalContext();
  container.bind(TOKENS.PrincipalContext).toConstantValue(principals);
  container.bind(TOKENS.PathPolicy).toConstantValue(new PathPolicy(rootsOf(config), principals));
  container.bind(TOKENS.ToolPolicy).toConstantValue(new ToolPolicy());
  container
    .bind(RootAccess)
    .toResolvedValue((paths: PathPolicy, tools: ToolPolicy) => new RootAccess(paths, tools), [TOKENS.PathPolicy, TOKENS.ToolPolicy]);

  if (overrides.fileSystem) container.bind(TOKENS.FileSystem).toConstantValue(overrides.fileSystem);
  else container.bind(TOKENS.FileSystem).to(NodeFileSystem);
  if (overrides.clock) container.bind(TOKENS.Clock).toConstantValue(overrides.clock);
  else container.bind(TOKENS.Clock).to(SystemClock);
  container.bind(TOKENS.Logger).toConstantValue(overrides.logger ?? new WinstonLogger(config.logLevel));
  container.bind(TOKENS.RegexEngine).to(Re2RegexEngine);
  container.bind(TOKENS.Metrics).toConstantValue(new PrometheusMetrics(config.roots.map((root) => root.name)));
  container.bind(TOKENS.ContentHasher).to(NodeContentHasher);

  container
    .bind(TOKENS.SessionStore)
    .toResolvedValue(
      (clock: Clock, logger: Logger): SessionStateStore =>
        config.sessionStoreUrl === ''
          ? new InMemorySessionState(config.sessions, clock)
          : new RedisSessionState(config.sessionStoreUrl, config.sessions, logger),
      [TOKENS.Clock, TOKENS.Logger],
    );

  container.load(...toolFamilyModules(config.toolsets));

  container.bind(McpServerFactory).toSelf();
  container.bind(SessionRegistry).toSelf();
  container.bind(McpHttpEndpoint).toSelf();
  container.bind(HttpAuthentication).toSelf();
  container.bind(HttpServer).toSelf();
  container.bind(StdioServer).toSelf();
  return container;
}
