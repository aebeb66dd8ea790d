import { jest } from '@jest/globals';
import { z } from 'zod';
import { DomainError, errors } from '../../../../../src/domain/errors.js';
import { serializeMessage } from '../../../../../src/adapters/inbound/mcp/transports/message-json.js';
import { INTERNAL_ERROR_TEXT, MAX_RESULT_MESSAGE_BYTES, invokeTool, rejectTool, toCallToolResult } from '../../../../../src/adapters/inbound/mcp/tool-calls/result-mapper.js';
import { defineTool, READ_ONLY, type ToolOutput } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { prepareTool, type PreparedTool } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-schemas.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

function toolThat(handle: () => Promise<ToolOutput>): PreparedTool {
  return prepareTool(definitionThat(handle));
}

function definitionThat(handle: () => Promise<ToolOutput>) {
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
const CONTEXT = { sessionId: 'session-1', principal: 'ci-agent' };

describe('toCallToolResult', () => {
  it('renders structured output as compact JSON text and structuredContent', () => {
    expect(toCallToolResult({ structured: { size: 3, names: ['a'] } })).toEqual({
      content: [{ type: 'text', text: '{"size":3,"names":["a"]}' }],
      structuredContent: { size: 3, names: ['a'] },
    });
  });

  it("renders the text blocks with the definition's toText when it has one", () => {
    const toText = (result: { content: string; next: number }) => [result.content, `continue at ${result.next}`];
    expect(toCallToolResult({ structured: { content: 'raw "text"\n', next: 7 } }, { toText: toText as never })).toEqual({
      content: [
        { type: 'text', text: 'raw "text"\n' },
        { type: 'text', text: 'continue at 7' },
      ],
      structuredContent: { content: 'raw "text"\n', next: 7 },
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

describe('toCallToolResult isError', () => {
  it('marks a result isError when the handler says the call failed as a whole (read_files: every path failed), keeping its content', () => {
    const result = toCallToolResult({ structured: { files: [] }, text: '==> a <==\nERROR NOT_FOUND: gone\n', isError: true });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: '==> a <==\nERROR NOT_FOUND: gone\n' }], structuredContent: { files: [] } });
    expect(toCallToolResult({ structured: { files: [] }, text: 'x' }).isError).toBeUndefined();
  });
});

describe('invokeTool', () => {
  let logger: RecordingLogger;

  beforeEach(() => {
    logger = new RecordingLogger();
  });

  it('answers RESULT_TOO_LARGE instead of a message a stdio client would drop its connection over', async () => {
    // Quotes double when escaped, and the content is sent twice: 3 MiB becomes about 12 MiB.
    const huge = '"'.repeat(3 * 1024 * 1024);
    const result = await invokeTool(toolThat(async () => ({ structured: { content: huge } })), ARGS, CONTEXT, logger);
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^RESULT_TOO_LARGE: the result of read_file would be \d+ bytes/) }] });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(MAX_RESULT_MESSAGE_BYTES);
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ outcome: 'error', error_code: 'RESULT_TOO_LARGE' });
  });

  it('measures the response without serialising it again: the content sent twice is escaped once', async () => {
    const content = 'line "one"\n'.repeat(50_000);
    const tool = prepareTool({ ...definitionThat(async () => ({ structured: { content } })), toText: (result: { content: string }) => result.content } as never);
    const stringify = jest.spyOn(JSON, 'stringify');
    let result: Awaited<ReturnType<typeof invokeTool>> | undefined;
    try {
      result = await invokeTool(tool, ARGS, CONTEXT, logger);
      expect(stringify.mock.calls.filter(([value]) => value === result)).toEqual([]);
      expect(stringify.mock.calls.filter(([value]) => value === content)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    expect(logger.withMessage('tool call')[0].fields.response_bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
  });

  it('escapes a long text block of its own once, for the measure and for the message sent (a view of a large file)', async () => {
    const text = '   1\tconst "value";\n'.repeat(2_000);
    const structured = { path: '/notes/a.txt', start_line: 1, total_lines: 2_000, truncated: false };
    const stringify = jest.spyOn(JSON, 'stringify');
    let result: Awaited<ReturnType<typeof invokeTool>> | undefined;
    let sent: string;
    let message: unknown;
    try {
      result = await invokeTool(toolThat(async () => ({ text, structured })), ARGS, CONTEXT, logger);
      expect(stringify.mock.calls.filter(([value]) => value === text)).toHaveLength(1);
      stringify.mockClear();
      // As the SDK hands it to the transport: a shallow copy, its parts copied too.
      message = { jsonrpc: '2.0', id: 4, result: { content: result.content.map((block) => ({ ...block })), structuredContent: { ...(result.structuredContent as object) } } };
      sent = serializeMessage(message as never);
      expect(stringify.mock.calls.filter(([value]) => value === text || (typeof value === 'object' && value !== null))).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
    expect(sent).toBe(JSON.stringify(message));
    expect(logger.withMessage('tool call')[0].fields.response_bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
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
      principal: 'ci-agent',
      response_bytes: Buffer.byteLength(JSON.stringify(result)),
    });
    expect(entry.fields.duration_ms).toEqual(expect.any(Number));
  });

  it('passes the session id to the handler', async () => {
    const seen: string[] = [];
    const tool = defineTool({
      ...definitionThat(async () => ({ text: '' })),
      inputSchema: {},
      logFields: () => ({}),
      handle: async (_args, context) => {
        seen.push(context.sessionId);
        return { text: 'ok' };
      },
    });
    await invokeTool(prepareTool(tool), {}, CONTEXT, logger);
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
      principal: 'ci-agent',
    });
  });

  it('a batch output: each entry is a call (its own log line, metric and MCP failure), a denied one a denial; no line for the envelope', async () => {
    const denial = errors.outsideRoot('workspace', 'link', '/etc/passwd');
    const entries = [
      { path: 'a.txt', durationMs: 1, responseBytes: 10 },
      { path: 'link', error: { code: 'ACCESS_DENIED', text: denial.toClientText(), cause: denial }, durationMs: 2, responseBytes: 20 },
      { path: 'gone', error: { code: 'NOT_FOUND', text: 'NOT_FOUND: file not found: gone' }, durationMs: 3, responseBytes: 30 },
    ];
    const finished: unknown[] = [];
    const failures: unknown[] = [];
    await invokeTool(
      toolThat(async () => ({ structured: { files: [] }, text: 'x', entries })),
      ARGS,
      CONTEXT,
      logger,
      { toolCallFinished: (call) => finished.push(call) },
      (call) => failures.push(call),
    );
    expect(logger.withMessage('tool call').map((entry) => [entry.fields.path, entry.fields.outcome, entry.fields.error_code, entry.fields.response_bytes])).toEqual([
      ['a.txt', 'success', undefined, 10],
      ['link', 'error', 'ACCESS_DENIED', 20],
      ['gone', 'error', 'NOT_FOUND', 30],
    ]);
    expect(logger.withMessage('security denial').map((entry) => entry.fields)).toEqual([
      expect.objectContaining({ tool: 'read_file', root: 'workspace', attempted_path: 'link', resolved_path: '/etc/passwd' }),
    ]);
    expect(finished.map((call) => (call as { denial?: string }).denial)).toEqual([undefined, 'ACCESS_DENIED', undefined]);
    expect(failures).toEqual([
      { tool: 'read_file', code: 'ACCESS_DENIED', text: denial.toClientText(), denial: true },
      { tool: 'read_file', code: 'NOT_FOUND', text: 'NOT_FOUND: file not found: gone', denial: false },
    ]);
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

  it('NFR-017: a call with bad arguments never reaches the handler and is logged as INVALID_ARGUMENT', async () => {
    let ran = false;
    const tool = toolThat(async () => {
      ran = true;
      return { text: 'ran' };
    });
    const result = await invokeTool(tool, { root: 'workspace', path: 3, extra: 1 }, CONTEXT, logger);

    expect(ran).toBe(false);
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'INVALID_ARGUMENT: invalid arguments for read_file: path: expected string, got number; unknown parameter: extra' }],
    });
    const [entry] = logger.withMessage('tool call');
    expect(entry.fields).toMatchObject({ tool: 'read_file', root: 'workspace', outcome: 'error', error_code: 'INVALID_ARGUMENT', session: 'session-1' });
    // Only strings make it into the log's root/path fields.
    expect(entry.fields.path).toBeUndefined();
    expect(entry.fields.duration_ms).toEqual(expect.any(Number));
    expect(entry.fields.response_bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
  });

  it('hands the handler the parsed arguments, defaults applied', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      ...definitionThat(async () => ({ text: '' })),
      inputSchema: { root: z.string(), mode: z.string().default('overwrite') },
      logFields: (args) => ({ root: args.root }),
      handle: async (args) => {
        seen.push(args);
        return { text: 'ok' };
      },
    });
    await invokeTool(prepareTool(tool), { root: 'workspace' }, CONTEXT, logger);
    expect(seen).toEqual([{ root: 'workspace', mode: 'overwrite' }]);
  });

  it('rejects an unknown tool as INVALID_ARGUMENT and logs the call', () => {
    const result = rejectTool('read_fiel', 'unknown', CONTEXT, logger);

    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'INVALID_ARGUMENT: unknown tool: read_fiel' }] });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({
      tool: 'read_fiel',
      outcome: 'error',
      error_code: 'INVALID_ARGUMENT',
      session: 'session-1',
    });
  });
});

describe('invokeTool output check', () => {
  let logger: RecordingLogger;

  beforeEach(() => {
    logger = new RecordingLogger();
  });

  const withOutput = (structured: Record<string, unknown> | undefined): PreparedTool =>
    prepareTool(
      defineTool({
        ...definitionThat(async () => ({ structured })),
        outputSchema: {
          size: z.number().int(),
          entries: z.array(z.object({ name: z.string() })).optional(),
          note: z.string().optional(),
        },
      }),
    );

  it('sends a result that matches the outputSchema', async () => {
    const result = await invokeTool(withOutput({ size: 3, entries: [{ name: 'a' }] }), ARGS, CONTEXT, logger);
    expect(result.structuredContent).toEqual({ size: 3, entries: [{ name: 'a' }] });
  });

  it('lets an undeclared field through when it is undefined, since JSON drops it', async () => {
    const result = await invokeTool(withOutput({ size: 3, note: undefined, debug: undefined }), ARGS, CONTEXT, logger);
    expect(result.isError).toBeUndefined();
  });

  it.each([
    ['a wrong type', { size: '3' }, 'size: expected number, got string'],
    ['a missing field', {}, 'size: required'],
    ['an undeclared field', { size: 1, host_path: '/srv/x' }, 'host_path: unexpected field'],
    ['an undeclared field in a nested object', { size: 1, entries: [{ name: 'a', inode: 7 }] }, 'entries[0].inode: unexpected field'],
  ])('turns %s into INTERNAL_ERROR and logs the issues at ERROR', async (_what, structured, issues) => {
    const result = await invokeTool(withOutput(structured), ARGS, CONTEXT, logger);

    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: INTERNAL_ERROR_TEXT }] });
    const [logged] = logger.withMessage('tool result does not match its outputSchema');
    expect(logged).toMatchObject({ level: 'error', fields: { tool: 'read_file', session: 'session-1', issues } });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ outcome: 'error', error_code: 'INTERNAL_ERROR' });
  });

  it('treats a missing structured result as a mismatch when an outputSchema is declared', async () => {
    const result = await invokeTool(withOutput(undefined), ARGS, CONTEXT, logger);
    expect(result.content).toEqual([{ type: 'text', text: INTERNAL_ERROR_TEXT }]);
    expect(logger.withMessage('tool result does not match its outputSchema')[0].fields).toMatchObject({ issues: 'no structured result' });
  });
});
