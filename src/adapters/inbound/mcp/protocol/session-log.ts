import { z } from 'zod';
import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import type { Server, LoggingLevel, ServerNotification } from '@modelcontextprotocol/server';
import { JsonRpcError } from './json-rpc-error.js';

export const SESSION_LOGGER = 'mcp-filesystem';

/** RFC 5424 severities in the order MCP lists them, least severe first. */
const SEVERITY: ReadonlyMap<LoggingLevel, number> = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/** logging/setLevel with any level: an unknown one gets a clear -32602 here, not the SDK's raw schema dump. */
const SET_LEVEL_PARAMS = { params: z.object({ level: z.unknown() }).loose() };

/** Sends one notification; a tool call passes its request's sender so the message travels with its answer. */
export type NotificationSender = (notification: ServerNotification) => Promise<void>;

/** One failed tool call, as its client saw it. */
export interface FailedCall {
  readonly tool: string;
  readonly code: string;
  /** The error text the client received (already free of host paths). */
  readonly text: string;
  readonly denial: boolean;
}

/**
 * MCP logging for one session (logging/setLevel, notifications/message). Only this session's own
 * events reach it, and only once its client has set a level: the SDK's own handler would send every
 * message before that, and keeps one map of levels for all sessions of a Server.
 * Security: callers pass client-facing facts only (error codes and the texts the client already
 * got, root names); never a host path, token, hash or stack, which live in the server log alone.
 */
const attached = new WeakMap<Server, SessionLog>();

export class SessionLog {
  private level?: LoggingLevel;

  private constructor(private readonly send: NotificationSender) {}

  /** Answers logging/setLevel on `server` (declared with the `logging` capability) for this session. */
  static attach(server: Server): SessionLog {
    const log = new SessionLog((notification) => server.notification(notification));
    attached.set(server, log);
    server.setRequestHandler('logging/setLevel', SET_LEVEL_PARAMS, (params) => {
      const level = LoggingLevelSchema.safeParse(params.level);
      if (!level.success) throw JsonRpcError.invalidParams(`INVALID_ARGUMENT: logging/setLevel: level must be one of ${LoggingLevelSchema.options.join(', ')}`);
      log.level = level.data;
      return {};
    });
    return log;
  }

  /** The log attached to `server`, if any (the stdio fast path logs a session's failed calls there). */
  static of(server: Server): SessionLog | undefined {
    return attached.get(server);
  }

  /** Whether a message at `level` would be sent (false until the client sets a level). */
  wants(level: LoggingLevel): boolean {
    return this.level !== undefined && SEVERITY.get(level)! >= SEVERITY.get(this.level)!;
  }

  /** Sends `data` at `level` when the client asked for it; a closed connection loses it silently. */
  emit(level: LoggingLevel, data: Record<string, unknown>, send: NotificationSender = this.send): void {
    if (!this.wants(level)) return;
    send({ method: 'notifications/message', params: { level, logger: SESSION_LOGGER, data } }).catch(() => undefined);
  }

  /** A refused or failed tool call: `error` for a security denial, `warning` for any other failure. */
  callFailed(call: FailedCall, send?: NotificationSender): void {
    const { level, data } = failureMessage(call);
    this.emit(level, data, send);
  }
}

/** What a failed call's log message says, on either protocol revision. */
export function failureMessage(call: FailedCall): { level: LoggingLevel; data: Record<string, unknown> } {
  const event = call.denial ? 'security_denial' : 'tool_call_failed';
  return { level: call.denial ? 'error' : 'warning', data: { event, tool: call.tool, error_code: call.code, message: call.text } };
}

/**
 * 2026-07-28 has no logging/setLevel: each request names its level in `_meta`, and the SDK's
 * request logger applies it (nothing is sent when the request names none).
 */
export function requestFailureLog(log: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>): (call: FailedCall) => void {
  return (call) => {
    const { level, data } = failureMessage(call);
    log(level, data, SESSION_LOGGER).catch(() => undefined);
  };
}
