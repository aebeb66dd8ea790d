import 'reflect-metadata';
import type { Container } from 'inversify';
import { McpHttpEndpoint } from '../adapters/inbound/mcp/transports/http-transport.js';
import { ModernHttpEndpoint } from '../adapters/inbound/mcp/transports/modern-http.js';
import { HttpAuthentication } from '../adapters/inbound/http/auth/http-authentication.js';
import { HttpServer } from '../adapters/inbound/http/http-app.js';
import { ReviewApi } from '../adapters/inbound/review/review-api.js';
import { PrometheusMetrics } from '../adapters/outbound/prometheus-metrics.js';
import type { AppConfig } from '../config/app-config.js';
import { buildCoreContainer, type ContainerOverrides } from './core-container.js';
import { redisStores } from './redis-stores.js';
import { TOKENS } from './tokens.js';

export type { ContainerOverrides } from './core-container.js';

/**
 * The composition root: the only place that knows every class. The core (domain, adapters, tools,
 * stdio) plus the HTTP server, its authentication and the Prometheus metrics, which also observe
 * every tool call. main.ts loads this module only to serve HTTP.
 */
export function buildContainer(config: AppConfig, overrides: ContainerOverrides = {}): Container {
  const container = buildCoreContainer(config, overrides, redisStores);
  container.bind(TOKENS.Metrics).toConstantValue(new PrometheusMetrics(config.roots.map((root) => root.name)));
  container.bind(ModernHttpEndpoint).toSelf();
  container.bind(McpHttpEndpoint).toSelf();
  container.bind(HttpAuthentication).toSelf();
  container.bind(ReviewApi).toSelf();
  container.bind(HttpServer).toSelf();
  return container;
}
