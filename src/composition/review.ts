import { ReviewApi } from '../adapters/inbound/review/review-api.js';
import { ReviewServer } from '../adapters/inbound/review/review-server.js';
import type { AppConfig } from '../config/app-config.js';
import { buildStdioContainer } from './core-container.js';
import { TOKENS } from './tokens.js';
import type { Container } from 'inversify';

/** `mcp-filesystem review`: the container a stdio server would build (same roots, same journal), and the page's own loopback server. */
export async function buildReview(config: AppConfig): Promise<{ container: Container; server: ReviewServer }> {
  const container = await buildStdioContainer(config);
  container.bind(ReviewApi).toSelf();
  return { container, server: new ReviewServer(container.get(ReviewApi), container.get(TOKENS.Logger)) };
}
