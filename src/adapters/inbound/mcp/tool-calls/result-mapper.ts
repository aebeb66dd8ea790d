import type { CallToolResult } from '@modelcontextprotocol/server';
import { DomainError, errors } from '../../../../domain/errors.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { cancelled } from '../../../../domain/work-context.js';
import { describeIssues, parseArguments } from './argument-parser.js';
import { jsonByteLength } from './json-size.js';
import { rememberResultJson } from '../transports/message-json.js';
import type { ToolCallContext, ToolDefinition, ToolLogFields, ToolOutput } from './tool-definition.js';
import type { ToolCallObserver, ToolCallRecord } from '../../../shared/metrics.port.js';
import type { PreparedTool } from './tool-schemas.js';
import type { FailedCall } from '../protocol/session-log.js';

export const INTERNAL_ERROR_TEXT = 'INTERNAL_ERROR: unexpected error; see the server log';

/**
 * Security: the SDK's stdio client drops the connection on a message over 10 MiB
 * (STDIO_DEFAULT_MAX_BUFFER_SIZE), and every later call fails. The use cases keep content within
 * max_result_bytes; this is the last guard for results that have no budget of their own (a
 * listing of a huge directory), with room left for the JSON-RPC envelope.
 */
export const MAX_RESULT_MESSAGE_BYTES = 10 * 1024 * 1024 - 64 * 1024;

/**
 * The model reads the text blocks: the handler's own text, else the definition's rendering,
 * else the structured result as compact JSON (indentation only costs tokens). `sizes` learns the
 * JSON size of what was serialised here, so measuring the result need not serialise it again.
 */
export function toCallToolResult(output: ToolOutput, definition?: Pick<ToolDefinition, 'toText'>, sizes?: Map<unknown, number>): CallToolResult {
  const content: CallToolResult['content'] = [];
  for (const text of textBlocks(output, definition, sizes)) content.push({ type: 'text', text });
  if (output.image) content.push({ type: 'image', data: output.image.data, mimeType: output.image.mimeType });
  const result: CallToolResult = output.structured === undefined ? { content } : { content, structuredContent: output.structured };
  return output.isError ? { ...result, isError: true } : result;
}

function textBlocks(output: ToolOutput, definition?: Pick<ToolDefinition, 'toText'>, sizes?: Map<unknown, number>): readonly string[] {
  if (output.text !== undefined) {
    rememberLongText(output.text, output.structured, sizes);
    return [output.text];
  }
  if (output.structured === undefined) return [];
  if (definition?.toText) {
    const rendered = definition.toText(output.structured as never);
    if (typeof rendered !== 'string') return rendered;
    rememberLongText(rendered, output.structured, sizes);
    return [rendered];
  }
  const json = JSON.stringify(output.structured);
  // The text block is the structured content's JSON: made once here, measured and sent from here.
  const textJson = JSON.stringify(json);
  sizes?.set(output.structured, Buffer.byteLength(json));
  sizes?.set(json, Buffer.byteLength(textJson));
  rememberResultJson({ text: json, textJson, structured: output.structured, structuredJson: json });
  return [json];
}

/**
 * A text block at least this long is escaped to JSON once, here: the measure of the response and the
 * message sent both use that JSON. The view of a 2,000-line file (95 KB of numbered lines, tabs and
 * newlines to escape) costs 150 µs an escape on this machine.
 */
const LONG_TEXT_LENGTH = 16 * 1024;

/** Escapes a long text block (and its small structured companion) once, for the measure and the send. */
function rememberLongText(text: string, structured: Readonly<Record<string, unknown>> | undefined, sizes?: Map<unknown, number>): void {
  if (structured === undefined || text.length < LONG_TEXT_LENGTH) return;
  const textJson = JSON.stringify(text);
  const structuredJson = JSON.stringify(structured);
  sizes?.set(text, Buffer.byteLength(textJson));
  sizes?.set(structured, Buffer.byteLength(structuredJson));
  rememberResultJson({ text, textJson, structured, structuredJson });
}

function firstText(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Runs one tool call the way every call is run: argument parsing, the handler, the output
 * check, the mapping of the output or error to a CallToolResult, then the call log (NFR-017),
 * which rejected calls get too. Nothing thrown by a handler reaches the SDK, which would
 * forward the raw message (and any host path in it).
 */
export async function invokeTool(
  tool: PreparedTool,
  rawArgs: Record<string, unknown>,
  context: ToolCallContext,
  logger: Logger,
  observer?: ToolCallObserver,
  onFailure?: (call: FailedCall) => void,
): Promise<CallToolResult> {
  const { definition } = tool;
  const started = performance.now();
  let fields = logFieldsOf(definition, rawArgs);
  let result: CallToolResult;
  const sizes = new Map<unknown, number>();
  let errorCode: string | undefined;
  let denial: string | undefined;
  let entries: ToolOutput['entries'];
  try {
    const args = parseArguments(definition.name, tool.input, rawArgs);
    fields = logFieldsOf(definition, args);
    const output = await definition.handle(args, context);
    const mismatch = outputMismatch(tool, output);
    if (mismatch === undefined) {
      result = toCallToolResult(output, definition, sizes);
      entries = output.entries;
    } else {
      // Our bug, not the caller's: a result that breaks the declared schema is never sent.
      errorCode = 'INTERNAL_ERROR';
      result = errorResult(INTERNAL_ERROR_TEXT);
      logger.error('tool result does not match its outputSchema', { tool: definition.name, session: context.sessionId,
    principal: context.principal, issues: mismatch });
    }
  } catch (error) {
    if (context.work?.signal?.aborted && !(error instanceof DomainError && error.code !== 'CANCELLED')) {
      // The client cancelled: whatever the aborted work threw, the call ended as cancelled (and the SDK sends no answer).
      errorCode = 'CANCELLED';
      result = errorResult(cancelled().toClientText());
    } else if (error instanceof DomainError) {
      errorCode = error.code;
      result = errorResult(error.toClientText());
      if (error.isSecurityDenial) {
        denial = error.code;
        logDenial(logger, definition.name, fields, error, context);
      }
    } else {
      errorCode = 'INTERNAL_ERROR';
      result = errorResult(INTERNAL_ERROR_TEXT);
      logger.error('unexpected error in tool call', {
        tool: definition.name,
        session: context.sessionId,
    principal: context.principal,
        error: describe(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
  }
  let responseBytes = jsonByteLength(result, sizes);
  if (responseBytes > MAX_RESULT_MESSAGE_BYTES) {
    errorCode = 'RESULT_TOO_LARGE';
    result = errorResult(
      `RESULT_TOO_LARGE: the result of ${definition.name} would be ${responseBytes} bytes, over the ${MAX_RESULT_MESSAGE_BYTES} one message may carry; narrow the request (a subdirectory, a pattern, max_results)`,
    );
    responseBytes = jsonByteLength(result);
    entries = undefined;
  }
  if (entries !== undefined) {
    logEntries(definition.name, fields, entries, context, logger, observer, onFailure);
    return result;
  }
  const record = logCall(logger, { tool: definition.name, ...fields }, errorCode, performance.now() - started, responseBytes, context);
  observer?.toolCallFinished({ ...record, writtenBytes: definition.annotations.readOnlyHint ? 0 : contentBytesOf(rawArgs), denial });
  if (errorCode !== undefined && errorCode !== 'CANCELLED') onFailure?.({ tool: definition.name, code: errorCode, text: firstText(result), denial: denial !== undefined });
  return result;
}

/**
 * Security: a batch's entries are its calls (issue 32). One line, one metric and one MCP message
 * each, so a denied path in a batch is logged exactly as the same path alone would be.
 */
function logEntries(
  tool: string,
  fields: ToolLogFields,
  entries: NonNullable<ToolOutput['entries']>,
  context: ToolCallContext,
  logger: Logger,
  observer?: ToolCallObserver,
  onFailure?: (call: FailedCall) => void,
): void {
  for (const entry of entries) {
    const where = { root: fields.root, path: entry.path };
    const record = logCall(logger, { tool, ...where }, entry.error?.code, entry.durationMs, entry.responseBytes, context);
    const cause = entry.error?.cause;
    const denied = cause?.isSecurityDenial === true;
    if (denied) logDenial(logger, tool, where, cause, context);
    observer?.toolCallFinished({ ...record, writtenBytes: 0, denial: denied ? cause.code : undefined });
    if (entry.error !== undefined) onFailure?.({ tool, code: entry.error.code, text: entry.error.text, denial: denied });
  }
}

/** Bytes a writing call asks to store: its `content` (write_file, file_write, create_file) or replacement text. */
function contentBytesOf(args: Record<string, unknown>): number {
  const text = typeof args.content === 'string' ? args.content : typeof args.new_str === 'string' ? args.new_str : undefined;
  return text === undefined ? 0 : Buffer.byteLength(text);
}

/**
 * A call the server refuses before reading its arguments, as an error result logged like any other:
 * `unknown`, naming no tool this server has; `unlisted`, a tool no root of this session allows (so
 * tools/list left it out).
 */
export function rejectTool(
  name: string,
  why: 'unknown' | 'unlisted',
  context: ToolCallContext,
  logger: Logger,
  observer?: ToolCallObserver,
  onFailure?: (call: FailedCall) => void,
): CallToolResult {
  // Security: a client-chosen name must not become a metric label (unbounded series).
  if (why === 'unknown') return rejectCall(name, 'unknown', errors.invalidArgument(`unknown tool: ${name}`), context, logger, observer, onFailure);
  return rejectCall(name, name, errors.toolNotAllowedAnywhere(name), context, logger, observer, onFailure);
}

export function rejectCall(
  name: string,
  metricName: string,
  error: DomainError,
  context: ToolCallContext,
  logger: Logger,
  observer?: ToolCallObserver,
  onFailure?: (call: FailedCall) => void,
): CallToolResult {
  const started = performance.now();
  const result = errorResult(error.toClientText());
  const record = logCall(logger, { tool: name }, error.code, performance.now() - started, jsonByteLength(result), context);
  if (error.isSecurityDenial) logDenial(logger, name, {}, error, context);
  observer?.toolCallFinished({ ...record, tool: metricName, writtenBytes: 0, denial: error.isSecurityDenial ? error.code : undefined });
  onFailure?.({ tool: name, code: error.code, text: firstText(result), denial: error.isSecurityDenial });
  return result;
}

function logCall(
  logger: Logger,
  call: ToolLogFields & { tool: string },
  errorCode: string | undefined,
  elapsedMs: number,
  responseBytes: number,
  context: ToolCallContext,
): Omit<ToolCallRecord, 'writtenBytes'> {
  const outcome = errorCode === undefined ? 'success' : errorCode === 'CANCELLED' ? 'cancelled' : 'error';
  logger.info('tool call', {
    tool: call.tool,
    root: call.root,
    path: call.path,
    outcome,
    error_code: errorCode,
    duration_ms: Math.round(elapsedMs * 1000) / 1000,
    response_bytes: responseBytes,
    session: context.sessionId,
    principal: context.principal,
  });
  return { tool: call.tool, root: call.root, outcome, errorCode, durationSeconds: elapsedMs / 1000, responseBytes };
}

function outputMismatch(tool: PreparedTool, output: ToolOutput): string | undefined {
  if (tool.output === undefined) return undefined;
  if (output.structured === undefined) return 'no structured result';
  if (tool.outputAccepts?.(output.structured)) return undefined;
  const checked = tool.output.safeParse(output.structured);
  return checked.success ? undefined : describeIssues(checked.error.issues, output.structured);
}

/** NFR-019: denials are logged with the facts the client never sees (the resolved host path). */
export function logDenial(logger: Logger, tool: string, fields: ToolLogFields, error: DomainError, context: ToolCallContext): void {
  logger.warn('security denial', {
    tool: error.logDetails.tool ?? tool,
    root: error.logDetails.root ?? fields.root,
    attempted_path: error.logDetails.attemptedPath ?? fields.path,
    resolved_path: error.logDetails.resolvedPath,
    error_code: error.code,
    reason: error.message,
    session: context.sessionId,
    principal: context.principal,
  });
}

/** Strings only: before parsing, `root` or `path` may be anything the client sent. */
function logFieldsOf(definition: ToolDefinition, args: Record<string, unknown>): ToolLogFields {
  try {
    const { root, path } = definition.logFields(args);
    return { root: typeof root === 'string' ? root : undefined, path: typeof path === 'string' ? path : undefined };
  } catch {
    return {};
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
