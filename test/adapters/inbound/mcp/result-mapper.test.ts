import { z } from 'zod';
import { DomainError, errors } from '../../../../src/domain/errors.js';
import { INTERNAL_ERROR_TEXT, invokeTool, toCallToolResult } from '../../../../src/adapters/inbound/mcp/result-mapper.js';
import { defineTool, READ_ONLY, type ToolDefinition, type ToolOutput } from '../../../../src/adapters/inbound/mcp/tool-definition.js';
import { RecordingLogger } from '../../../support/recording-logger.js';

function toolThat(handle: () => Promise<ToolOutput>): ToolDefinition {
  return defineTool({
    name: 'read_file',
    title: 'Read file',
    description: 'test tool',
    inputSchema: { root: z.string(), path: z.string() },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle,
  });
}

const ARGS = { root: 'workspace', path: 'notes/a.txt' };
const CONTEXT = { sessionId: 'session-1' };

describe('toCallToolResult', () => {
  it('renders structured output as pretty JSON text and structuredContent', () => {
    expect(toCallToolResult({ structured: { size: 3 } })).toEqual({
      content: [{ type: 'text', text: '{\n  "size": 3\n}' }],
      structuredContent: { size: 3 },
    });
  });

  it('prefers the explicit text and appends an image block', () => {
    const result = toCallToolResult({ text: 'a picture', structured: { kind: 'image' }, image: { data: 'AAAA', mimeType: 'image/png' } });
    expect(result.content).toEqual([
      { type: 'text', text: 'a picture' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ]);
    expect(result.structuredContent).toEqual({ kind: 'image' });
  });

  it('leaves structuredContent out when there is none', () => {
    expect(toCallToolResult({ text: 'plain' })).toEqual({ content: [{ type: 'text', text: 'plain' }] });
  });
});

describe('invokeTool', () => {
  let logger: RecordingLogger;

  beforeEach(() => {
    logger = new RecordingLogger();
  });

  it('logs a successful call at INFO with the NFR-017 fields', async () => {
    const result = await invokeTool(toolThat(async () => ({ structured: { content: 'hi' } })), ARGS, CONTEXT, logger);

    expect(result.isError).toBeUndefined();
    const [entry] = logger.withMessage('tool call');
    expect(entry.level).toBe('info');
    expect(entry.fields).toMatchObject({
      tool: 'read_file',
      root: 'workspace',
      path: 'notes/a.txt',
      outcome: 'success',
      error_code: undefined,
      session: 'session-1',
      response_bytes: Buffer.byteLength(JSON.stringify(result)),
    });
    expect(entry.fields.duration_ms).toEqual(expect.any(Number));
  });

  it('passes the session id to the handler', async () => {
    const seen: string[] = [];
    const tool = defineTool({
      ...toolThat(async () => ({ text: '' })),
      inputSchema: {},
      logFields: () => ({}),
      handle: async (_args, context) => {
        seen.push(context.sessionId);
        return { text: 'ok' };
      },
    });
    await invokeTool(tool, {}, CONTEXT, logger);
    expect(seen).toEqual(['session-1']);
  });

  it('maps a DomainError to an isError result with its client text', async () => {
    const result = await invokeTool(toolThat(async () => Promise.reject(errors.notFound('file', 'workspace', 'notes/a.txt'))), ARGS, CONTEXT, logger);

    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'NOT_FOUND: file not found: notes/a.txt (root: workspace)' }] });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ outcome: 'error', error_code: 'NOT_FOUND' });
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
  });

  it('NFR-019: logs a security denial at WARN with the resolved path the client never sees', async () => {
    const denial = errors.outsideRoot('workspace', 'link/secret', '/etc/secret');
    const result = await invokeTool(toolThat(async () => Promise.reject(denial)), { root: 'workspace', path: 'link/secret' }, CONTEXT, logger);

    expect(result.content).toEqual([{ type: 'text', text: 'ACCESS_DENIED: path resolves outside root boundary: link/secret (root: workspace)' }]);
    expect(JSON.stringify(result)).not.toContain('/etc/secret');
    const [warning] = logger.withMessage('security denial');
    expect(warning.level).toBe('warn');
    expect(warning.fields).toMatchObject({
      tool: 'read_file',
      root: 'workspace',
      attempted_path: 'link/secret',
      resolved_path: '/etc/secret',
      error_code: 'ACCESS_DENIED',
      session: 'session-1',
    });
  });

  it('logs an allowlist denial at WARN', async () => {
    await invokeTool(toolThat(async () => Promise.reject(errors.toolNotAllowed('read_file', 'logs'))), { root: 'logs', path: 'x' }, CONTEXT, logger);
    expect(logger.withMessage('security denial')[0].fields).toMatchObject({ tool: 'read_file', root: 'logs', error_code: 'TOOL_NOT_ALLOWED' });
  });

  it('turns any other error into INTERNAL_ERROR without leaking its message, and logs it with the stack at ERROR', async () => {
    const failure = new Error("EACCES: permission denied, open '/srv/data/secret'");
    const result = await invokeTool(toolThat(async () => Promise.reject(failure)), ARGS, CONTEXT, logger);

    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: INTERNAL_ERROR_TEXT }] });
    expect(JSON.stringify(result)).not.toContain('/srv/data');
    const [logged] = logger.entries.filter((entry) => entry.level === 'error');
    expect(logged.fields).toMatchObject({ tool: 'read_file', error: `Error: ${failure.message}`, stack: failure.stack });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ outcome: 'error', error_code: 'INTERNAL_ERROR' });
  });

  it('treats a thrown non-Error the same way', async () => {
    const result = await invokeTool(toolThat(async () => Promise.reject('boom')), ARGS, CONTEXT, logger);
    expect(result.content).toEqual([{ type: 'text', text: INTERNAL_ERROR_TEXT }]);
  });

  it('keeps a DomainError with an arbitrary code as the client text', async () => {
    const error = new DomainError('FILE_TOO_LARGE', 'file too large: big.bin (root: workspace)');
    const result = await invokeTool(toolThat(async () => Promise.reject(error)), ARGS, CONTEXT, logger);
    expect(result.content).toEqual([{ type: 'text', text: 'FILE_TOO_LARGE: file too large: big.bin (root: workspace)' }]);
  });
});
