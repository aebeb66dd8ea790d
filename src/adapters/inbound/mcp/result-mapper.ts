import { performance } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../../../domain/errors.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import type { ToolCallContext, ToolDefinition, ToolLogFields, ToolOutput } from './tool-definition.js';

export const INTERNAL_ERROR_TEXT = 'INTERNAL_ERROR: unexpected error; see the server log';

export function toCallToolResult(output: ToolOutput): CallToolResult {
  const content: CallToolResult['content'] = [];
  const text = output.text ?? (output.structured === undefined ? undefined : JSON.stringify(output.structured, null, 2));
  if (text !== undefined) content.push({ type: 'text', text });
  if (output.image) content.push({ type: 'image', data: output.image.data, mimeType: output.image.mimeType });
  return output.structured === undefined ? { content } : { content, structuredContent: output.structured };
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Runs one tool call the way every call is run: the handler, then the mapping of its
 * output or error to a CallToolResult, then the call log (NFR-017). Nothing thrown by a
 * handler reaches the SDK, which would forward the raw message (and any host path in it).
 */
export async function invokeTool(
  definition: ToolDefinition,
  args: Record<string, unknown>,
  context: ToolCallContext,
  logger: Logger,
): Promise<CallToolResult> {
  const started = performance.now();
  const fields = logFieldsOf(definition, args);
  let result: CallToolResult;
  let errorCode: string | undefined;
  try {
    result = toCallToolResult(await definition.handle(args, context));
  } catch (error) {
    if (error instanceof DomainError) {
      errorCode = error.code;
      result = errorResult(error.toClientText());
      if (error.isSecurityDenial) logDenial(logger, definition.name, fields, error, context);
    } else {
      errorCode = 'INTERNAL_ERROR';
      result = errorResult(INTERNAL_ERROR_TEXT);
      logger.error('unexpected error in tool call', {
        tool: definition.name,
        session: context.sessionId,
        error: describe(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
  }
  logger.info('tool call', {
    tool: definition.name,
    root: fields.root,
    path: fields.path,
    outcome: errorCode === undefined ? 'success' : 'error',
    error_code: errorCode,
    duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    response_bytes: Buffer.byteLength(JSON.stringify(result)),
    session: context.sessionId,
  });
  return result;
}

/** NFR-019: denials are logged with the facts the client never sees (the resolved host path). */
function logDenial(logger: Logger, tool: string, fields: ToolLogFields, error: DomainError, context: ToolCallContext): void {
  logger.warn('security denial', {
    tool: error.logDetails.tool ?? tool,
    root: error.logDetails.root ?? fields.root,
    attempted_path: error.logDetails.attemptedPath ?? fields.path,
    resolved_path: error.logDetails.resolvedPath,
    error_code: error.code,
    reason: error.message,
    session: context.sessionId,
  });
}

function logFieldsOf(definition: ToolDefinition, args: Record<string, unknown>): ToolLogFields {
  try {
    return definition.logFields(args);
  } catch {
    return {};
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
