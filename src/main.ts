#!/usr/bin/env node
import { StdioServer } from './adapters/inbound/mcp/transports/stdio-transport.js';
import { TOOL_CATALOG } from './adapters/inbound/mcp/tool-calls/spec-catalog.js';
import type { Container } from 'inversify';
import { buildStdioContainer } from './composition/core-container.js';
import { recoverJournalAtStartup } from './composition/journal-binding.js';
import { rootProbes } from './composition/root-probes.js';
import { TOKENS } from './composition/tokens.js';
import { CommandLineError, HELP, parseCommandLine } from './cli/command-line.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { readPackageJson } from './config/package-info.js';
import type { Logger } from './domain/ports/logger.port.js';

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
  const config = loadConfig(commandLine, commandLine.review ? argv.slice(1) : argv, process.env, rootProbes, TOOL_CATALOG);
  if (commandLine.review) {
    const { buildReviewContainer, ReviewServer } = await import('./composition/review.js');
    const container = await buildReviewContainer(config);
    if (!container.isBound(TOKENS.ChangeJournal)) throw new Error('review: the change journal is off (journal.enabled), so there are no changes to show');
    const server = container.get(ReviewServer);
    await recoverJournal(container);
    onShutdownSignal(async () => {
      await server.stop();
      await closeJournal(container);
    }, signalLogger(container.get(TOKENS.Logger)));
    // The only line on stdout: the URL to open (its fragment holds this run's token).
    process.stdout.write(`${await server.start(commandLine.portGiven ? config.port : 0)}\n`);
    return;
  }
  if (commandLine.stdio) {
    // The stdio path never loads the HTTP stack (Koa, auth, Prometheus): start-up time is parse time.
    const container = await buildStdioContainer(config);
    await recoverJournal(container);
    const server = container.get(StdioServer);
    onShutdownSignal(async () => {
      await server.stop();
      await closeJournal(container);
    }, signalLogger(container.get(TOKENS.Logger)));
    const { closed } = await server.start();
    await closed;
    await closeJournal(container);
    process.exit(0);
  }
  const [{ buildContainer }, { HttpServer }] = await Promise.all([import('./composition/container.js'), import('./adapters/inbound/http/http-app.js')]);
  const container = buildContainer(config);
  await recoverJournal(container);
  const server = container.get(HttpServer);
  onShutdownSignal(async () => {
    await server.stop();
    await closeJournal(container);
  }, signalLogger(container.get(TOKENS.Logger)));
  await server.start();
}

async function recoverJournal(container: Container): Promise<void> {
  if (!container.isBound(TOKENS.ChangeJournal)) return;
  await recoverJournalAtStartup(container.get(TOKENS.ChangeJournal), container.get(TOKENS.PathPolicy), container.get(TOKENS.Snapshots), container.get(TOKENS.FileSystem), container.get(TOKENS.Logger));
}

/** A clean stop closes the journal: its begin log checkpointed, and its index's checkpoint written for the next start-up (issue 31). */
async function closeJournal(container: Container): Promise<void> {
  if (!container.isBound(TOKENS.ChangeJournal)) return;
  try {
    await container.get(TOKENS.ChangeJournal).close?.();
  } catch (error) {
    // Nothing is lost: the next start-up replays the log and reads the records in full.
    container.get(TOKENS.Logger).warn('journal close failed', { error: String(error) });
  }
}

function signalLogger(logger: Logger): (signal: string) => void {
  return (signal) => logger.info('shutting down', { signal });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // One line, no stack: a start-up failure is the operator's to fix, and this says what.
  const message = error instanceof ConfigError || error instanceof CommandLineError ? error.message : `mcp-filesystem: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message.split('\n')[0]}\n`);
  process.exit(1);
});
