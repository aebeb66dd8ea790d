import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TOKENS } from '../../../composition/tokens.js';
import type { AppConfig } from '../../../config/app-config.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { serializeMessage } from './message-json.js';
import { McpServerFactory } from './server-factory.js';
import { SessionRegistry } from './session-registry.js';

const STDIO_SESSION_ID = 'stdio';

/** The SDK's stdio transport, sending each message as serializeMessage writes it (a result's JSON made once). */
class StdioTransport extends StdioServerTransport {
  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (process.stdout.write(`${serializeMessage(message)}\n`)) resolve();
      else process.stdout.once('drain', resolve);
    });
  }
}

/** One MCP session over stdin/stdout. stdout belongs to the protocol: logs go to stderr. */
@injectable()
export class StdioServer {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(McpServerFactory) private readonly servers: McpServerFactory,
    @inject(SessionRegistry) private readonly sessions: SessionRegistry,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Serves until stdin ends; `closed` resolves then. */
  async start(): Promise<{ closed: Promise<void> }> {
    const server = this.servers.create(STDIO_SESSION_ID);
    if (!this.config.clientRoots) {
      // The operator's choice of folders stands; the client's are never asked for.
      server.oninitialized = () => {
        if (server.getClientCapabilities()?.roots) {
          this.logger.info('client roots ignored: the server was started with DIR arguments or a config file');
        }
      };
    }
    const transport = new StdioTransport();
    this.sessions.add({ id: STDIO_SESSION_ID, server, transport });
    await server.connect(transport);
    const closed = new Promise<void>((resolve) => {
      process.stdin.once('end', () => {
        void this.stop().then(resolve);
      });
    });
    this.logger.info('mcp-filesystem serving on stdio', {
      address: 'stdio',
      roots: this.config.roots.map((root) => root.name),
      config_file: this.config.configFile,
    });
    return { closed };
  }

  async stop(): Promise<void> {
    await this.sessions.closeAll();
  }
}
