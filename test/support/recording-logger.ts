import type { LogFields, Logger } from '../../src/domain/ports/logger.port.js';

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: LogFields;
}

/** A Logger that keeps what it was told, for tests to assert on (and to keep test output quiet). */
export class RecordingLogger implements Logger {
  readonly entries: LogEntry[] = [];

  debug(message: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'debug', message, fields });
  }

  info(message: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'info', message, fields });
  }

  warn(message: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'warn', message, fields });
  }

  error(message: string, fields: LogFields = {}): void {
    this.entries.push({ level: 'error', message, fields });
  }

  withMessage(message: string): LogEntry[] {
    return this.entries.filter((entry) => entry.message === message);
  }
}
