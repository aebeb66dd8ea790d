#!/usr/bin/env node
import { HttpServer } from './adapters/inbound/http/http-app.js';
import { StdioServer } from './adapters/inbound/mcp/stdio-transport.js';
import { buildContainer } from './composition/container.js';
import { TOKENS } from './composition/tokens.js';
import { CommandLineError, HELP, parseCommandLine } from './cli/command-line.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { readPackageJson } from './config/package-info.js';

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
  const commandLine = parseCommandLine(argv, process.env);
  if (commandLine.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (commandLine.version) {
    process.stdout.write(`${readPackageJson().version}\n`);
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
  const message = error instanceof ConfigError || error instanceof CommandLineError ? error.message : `mcp-filesystem: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message.split('\n')[0]}\n`);
  process.exit(1);
});
