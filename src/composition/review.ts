import { ReviewApi } from '../adapters/inbound/review/review-api.js';
import { ReviewServer } from '../adapters/inbound/review/review-server.js';
import type { AppConfig } from '../config/app-config.js';
import { buildStdioContainer } from './core-container.js';
import { TOKENS } from './tokens.js';
import type { Container } from 'inversify';
import type { Logger } from '../domain/ports/logger.port.js';

/** `mcp-filesystem review`: the container a stdio server would build (same roots, same journal), with the page's own loopback server bound. */
export async function buildReviewContainer(config: AppConfig): Promise<Container> {
  const container = await buildStdioContainer(config);
  container.bind(ReviewApi).toSelf();
  container.bind(ReviewServer).toResolvedValue((api: ReviewApi, logger: Logger) => new ReviewServer(api, logger), [ReviewApi, TOKENS.Logger]);
  return container;
}

export { ReviewServer };
