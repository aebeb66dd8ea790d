import 'reflect-metadata';
import { injectable } from 'inversify';
import type { ReadResourceResult, Resource, Server } from '@modelcontextprotocol/server';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { REVIEW_APP_URI, reviewAppHtml } from '../../review/review-app.js';
import { JsonRpcError } from './json-rpc-error.js';

export { EXTENSION_ID as APPS_EXTENSION };

/**
 * review_changes' `_meta`: the app hosts render for it. Only `ui.resourceUri`, the key of the current
 * spec (2026-01-26): the deprecated flat `ui/resourceUri` would cost every tools/list for old hosts.
 */
export const REVIEW_APP_META = { ui: { resourceUri: REVIEW_APP_URI } } as const;

/**
 * The MCP Apps UI resources (io.modelcontextprotocol/ui), served with the changes toolset: the
 * review app. They are the same for every caller and hold no data; what they show comes through
 * tools/call, under the caller's own grant.
 */
@injectable()
export class McpAppResources {
  private html?: string;

  list(): Resource[] {
    return [{ uri: REVIEW_APP_URI, name: 'review', title: 'Review changes', description: 'The app review_changes shows: your changes by file, with diffs and Undo buttons.', mimeType: RESOURCE_MIME_TYPE }];
  }

  owns(uri: string): boolean {
    return uri === REVIEW_APP_URI;
  }

  read(uri: string): ReadResourceResult {
    // Read once, on first use: a server whose clients never render apps never reads the page.
    this.html ??= reviewAppHtml();
    return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: this.html }] };
  }

  /** resources/list and resources/read when no file resources are served (the root toolset is off). */
  register(server: Server): void {
    server.setRequestHandler('resources/list', () => ({ resources: this.list() }));
    server.setRequestHandler('resources/read', (request) => {
      if (!this.owns(request.params.uri)) throw JsonRpcError.resourceNotFound(request.params.uri, `no resource ${request.params.uri.slice(0, 200)}`);
      return this.read(request.params.uri);
    });
  }
}
