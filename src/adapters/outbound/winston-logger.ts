import { createRequire } from 'node:module';
import type Winston from 'winston';
import type { LogFields, Logger } from '../../domain/ports/logger.port.js';

/** Most severe first, as winston's npm levels; log_level takes one of these. */
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;
type Level = (typeof LEVELS)[number];

// winston is loaded with the first line written, not at start-up: evaluating it and its ~70 modules
// costs ~40 ms of CPU, paid before the first answer (issue 31) by a server whose level drops every
// line it logs before then. scripts/build.mjs bundles this require (it stays synchronous, so no line
// waits or is lost); under tsc and Jest it is Node's.
const requireWinston = createRequire(import.meta.url);
let loaded: typeof Winston | undefined;
const winstonModule = (): typeof Winston => (loaded ??= requireWinston('winston') as typeof Winston);

/**
 * JSON lines on stderr (NFR-017). Always stderr: in --stdio mode stdout carries the
 * protocol, and one destination for both modes keeps operations simple.
 */
export class WinstonLogger implements Logger {
  private logger: Winston.Logger | undefined;
  private readonly enabled: number;

  constructor(private readonly level: string) {
    // The same order winston's npm levels give: a line passes when its level is at most this one.
    this.enabled = LEVELS.indexOf(level as Level);
  }

  debug(message: string, fields: LogFields = {}): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields: LogFields = {}): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields: LogFields = {}): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields: LogFields = {}): void {
    this.write('error', message, fields);
  }

  /** A line below the level is dropped here: winston would copy the fields into a record, run its formats, then drop it. */
  private write(level: Level, message: string, fields: LogFields): void {
    if (LEVELS.indexOf(level) > this.enabled) return;
    this.winston().log(level, message, fields);
  }

  private winston(): Winston.Logger {
    if (this.logger) return this.logger;
    const winston = winstonModule();
    this.logger = winston.createLogger({
      level: this.level,
      format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
      transports: [new winston.transports.Console({ stderrLevels: [...LEVELS] })],
    });
    return this.logger;
  }
}
