import winston from 'winston';
import type { LogFields, Logger } from '../../domain/ports/logger.port.js';

/** Most severe first, as winston's npm levels; log_level takes one of these. */
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;
type Level = (typeof LEVELS)[number];

/**
 * JSON lines on stderr (NFR-017). Always stderr: in --stdio mode stdout carries the
 * protocol, and one destination for both modes keeps operations simple.
 */
export class WinstonLogger implements Logger {
  private readonly logger: winston.Logger;

  constructor(level: string) {
    this.logger = winston.createLogger({
      level,
      format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
      transports: [new winston.transports.Console({ stderrLevels: [...LEVELS] })],
    });
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
    if (!this.logger.isLevelEnabled(level)) return;
    this.logger.log(level, message, fields);
  }
}
