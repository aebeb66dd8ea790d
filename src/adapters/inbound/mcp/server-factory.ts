import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { inject, injectable, multiInject, optional } from 'inversify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TOKENS } from '../../../composition/tokens.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { invokeTool } from './result-mapper.js';
import type { ToolDefinition } from './tool-definition.js';

// src/ and dist/ sit at the same depth below the package root.
const packageJson = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };

export const SERVER_NAME = 'mcp-filesystem';
export const SERVER_VERSION = packageJson.version;

const INSTRUCTIONS =
  'File and folder tools confined to named roots. Call list_roots first: every root-scoped tool takes ' +
  '`root` (a configured root name) and a path inside it, and each root allows only some tools.';

/** One McpServer per session, carrying every tool bound to TOKENS.ToolDefinition. */
@injectable()
export class McpServerFactory {
  private readonly definitions: readonly ToolDefinition[];

  constructor(
    @multiInject(TOKENS.ToolDefinition) @optional() definitions: ToolDefinition[] | undefined,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    this.definitions = definitions ?? [];
    const names = new Set<string>();
    for (const definition of this.definitions) {
      if (names.has(definition.name)) throw new Error(`two tool definitions are named ${definition.name}`);
      names.add(definition.name);
    }
  }

  create(sessionId: string): McpServer {
    const server = new McpServer(
      { name: SERVER_NAME, version: SERVER_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    for (const definition of this.definitions) {
      server.registerTool(
        definition.name,
        {
          title: definition.title,
          description: definition.description,
          inputSchema: definition.inputSchema,
          outputSchema: definition.outputSchema,
          annotations: { title: definition.title, ...definition.annotations },
        },
        (args: Record<string, unknown>) => invokeTool(definition, args, { sessionId }, this.logger),
      );
    }
    return server;
  }
}
