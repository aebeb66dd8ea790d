#!/usr/bin/env node
import { HttpServer } from './adapters/inbound/http/http-app.js';
import { StdioServer } from './adapters/inbound/mcp/stdio-transport.js';
import { buildContainer } from './composition/container.js';
import { TOKENS } from './composition/tokens.js';
import { ConfigError, loadConfig, parseCommandLine, USAGE } from './config/load-config.js';

const SHUTDOWN_GRACE_MS = 5000;

function onShutdownSignal(stop: () => Promise<void>, log: (signal: string) => void): void {
  const shutdown = (signal: string) => {
    log(signal);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    void stop().then(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

async function main(argv: string[]): Promise<void> {
  const commandLine = parseCommandLine(argv);
  if (commandLine.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const container = buildContainer(loadConfig(argv, process.env));
  const logger = container.get(TOKENS.Logger);
  const logSignal = (signal: string) => logger.info('shutting down', { signal });

  if (commandLine.stdio) {
    const server = container.get(StdioServer);
    onShutdownSignal(() => server.stop(), logSignal);
    const { closed } = await server.start();
    await closed;
    process.exit(0);
  }
  const server = container.get(HttpServer);
  onShutdownSignal(() => server.stop(), logSignal);
  await server.start();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // One line, no stack: a start-up failure is the operator's to fix, and this says what.
  const message = error instanceof ConfigError ? error.message : `mcp-filesystem: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message.split('\n')[0]}\n`);
  process.exit(1);
});
