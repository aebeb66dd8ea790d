import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import type { Server, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import { DomainError, errors } from '../../../../domain/errors.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { ReadResource, type ResourceContent } from '../../../../domain/tools/read-resource.js';
import type { McpAppResources } from './app-resources.js';
import { JsonRpcError } from './json-rpc-error.js';
import { mimeTypeOf } from './mime-types.js';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

export const RESOURCE_SCHEME = 'mcpfs';
export const RESOURCE_TEMPLATE = `${RESOURCE_SCHEME}://{root}/{+path}`;


/**
 * resources/list, resources/templates/list and resources/read for one session's Server: files
 * of the roots that allow read_file, addressed as mcpfs://<root>/<path>. Parsing the URI is
 * this adapter's job; everything else (confinement, permission, limits) is ReadResource's.
 */
@injectable()
export class McpResourceHandler {
  constructor(
    @inject(ReadResource) private readonly resources: ReadResource,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /**
   * Security: `asPrincipal` runs a handler with the session's principal, as tools/call is run, so
   * a principal limited to some roots neither lists nor reads the others through resources.
   */
  register(server: Server, sessionId: string, asPrincipal: <T>(action: () => T) => T = (action) => action(), apps?: McpAppResources): void {
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: [
        {
          uriTemplate: RESOURCE_TEMPLATE,
          name: 'file',
          title: 'File or directory in a root',
          description: 'A file (text, or base64 blob for binary) or a directory listing (one entry a line, "/" after directories) in a root that allows read_file.',
        },
      ],
    }));
    server.setRequestHandler('resources/list', () => asPrincipal(() => ({
      resources: this.resources.roots().map((name): Resource => ({
        uri: `${RESOURCE_SCHEME}://${name}/`,
        name,
        title: `Root ${name}`,
        description: `The top directory of root ${name}.`,
        mimeType: 'text/plain',
      })).concat(apps?.list() ?? []),
    })));
    server.setRequestHandler('resources/read', (request) => {
      const { uri } = request.params;
      // Security: an app's document holds no data (what it shows comes through tools/call, under the
      // session's grant), so it is read outside the principal's scope, the same for everyone.
      return apps?.owns(uri) ? apps.read(uri) : asPrincipal(() => this.read(uri, sessionId));
    });
  }

  private async read(uri: string, sessionId: string): Promise<ReadResourceResult> {
    let target: { root: string; path: string } | undefined;
    try {
      target = parseResourceUri(uri);
      const content = await this.resources.read(target.root, target.path);
      this.logger.info('resource read', { root: target.root, path: target.path, outcome: 'success', session: sessionId });
      return { contents: [toContents(uri, content)] };
    } catch (error) {
      if (error instanceof DomainError) {
        this.logger.info('resource read', { root: target?.root, path: target?.path, outcome: 'error', error_code: error.code, session: sessionId });
        if (error.isSecurityDenial) {
          this.logger.warn('security denial', {
            tool: 'resources/read',
            root: error.logDetails.root ?? target?.root,
            attempted_path: error.logDetails.attemptedPath ?? target?.path,
            resolved_path: error.logDetails.resolvedPath,
            error_code: error.code,
            reason: error.message,
            session: sessionId,
          });
        }
        // A URI outside mcpfs://{root}/{+path} names no resource here either: not found, with its URI (SEP-2164).
        const notFound = error.code === 'NOT_FOUND' || target === undefined;
        throw notFound ? JsonRpcError.resourceNotFound(uri, error.toClientText()) : JsonRpcError.invalidParams(error.toClientText());
      }
      // Security: never the raw message, which may carry a host path.
      this.logger.error('unexpected error in resource read', { session: sessionId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      throw new JsonRpcError(ProtocolErrorCode.InternalError, 'INTERNAL_ERROR: unexpected error; see the server log');
    }
  }
}

/** mcpfs://<root>/<path>: the root is the authority, the path is percent-decoded segment by segment. */
export function parseResourceUri(uri: string): { root: string; path: string } {
  const match = /^mcpfs:\/\/([^/?#]+)(\/[^?#]*)?$/.exec(uri);
  if (!match) throw errors.invalidArgument(`not a resource of this server (expected ${RESOURCE_TEMPLATE}): ${uri.slice(0, 200)}`);
  const [, root, rawPath = '/'] = match;
  let path: string;
  try {
    path = rawPath.split('/').map((segment) => decodeURIComponent(segment)).join('/');
  } catch {
    throw errors.invalidArgument(`invalid percent-encoding in resource path: ${rawPath.slice(0, 200)}`);
  }
  return { root, path: path.replace(/^\/+/, '') || '.' };
}

function toContents(uri: string, content: ResourceContent): ReadResourceResult['contents'][number] {
  switch (content.kind) {
    case 'text':
      return { uri, mimeType: mimeTypeOf(content.path, true), text: content.text };
    case 'binary':
      return { uri, mimeType: mimeTypeOf(content.path, false), blob: content.base64 };
    case 'directory': {
      const lines = content.entries.map((entry) => (entry.directory ? `${entry.name}/` : entry.name));
      if (content.omitted > 0) lines.push(`[${content.omitted} more entries not shown: the listing would not fit in one result; use list_folder or glob]`);
      return { uri, mimeType: 'text/plain', text: lines.join('\n') };
    }
  }
}
