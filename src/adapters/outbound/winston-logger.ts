import winston from 'winston';
import type { LogFields, Logger } from '../../domain/ports/logger.port.js';

const LEVELS = ['error', 'warn', 'info', 'debug'];

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
      transports: [new winston.transports.Console({ stderrLevels: LEVELS })],
    });
  }

  debug(message: string, fields: LogFields = {}): void {
    this.logger.debug(message, fields);
  }

  info(message: string, fields: LogFields = {}): void {
    this.logger.info(message, fields);
  }

  warn(message: string, fields: LogFields = {}): void {
    this.logger.warn(message, fields);
  }

  error(message: string, fields: LogFields = {}): void {
    this.logger.error(message, fields);
  }
}
