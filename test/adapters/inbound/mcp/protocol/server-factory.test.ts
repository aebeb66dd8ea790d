import { AsyncLocalStorage } from 'node:async_hooks';
import { jest } from '@jest/globals';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AsyncLocalChangeAuthor } from '../../../../../src/adapters/inbound/mcp/tool-calls/call-author.js';
import { AsyncLocalPrincipalContext } from '../../../../../src/adapters/inbound/mcp/protocol/call-principal.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../../../src/domain/principal.js';
import { INTERNAL_ERROR_TEXT } from '../../../../../src/adapters/inbound/mcp/tool-calls/result-mapper.js';
import { McpServerFactory, SERVER_NAME } from '../../../../../src/adapters/inbound/mcp/protocol/server-factory.js';
import { defineTool, READ_ONLY, WRITES, type ToolDefinition } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { callTool } from '../../../../support/mcp.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

const readTool = (result: Record<string, unknown>): ToolDefinition =>
  defineTool({
    name: 'read_file',
    title: 'Read file',
    description: 'Reads a file.',
    inputSchema: { root: z.string().describe('root name'), path: z.string().describe('path in the root') },
    outputSchema: { content: z.string() },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async () => ({ structured: result }),
  });

const richTool = defineTool({
  name: 'rich',
  title: 'Rich',
  description: 'A tool with every kind of constraint.',
  inputSchema: {
    root: z.string().describe('root name'),
    mode: z.enum(['overwrite', 'append']).default('overwrite').describe('write mode'),
    limit_lines: z.number().int().min(1).max(100).optional().describe('lines to read'),
    view_range: z.array(z.number().int()).length(2).optional().describe('range'),
  },
  outputSchema: { entries: z.array(z.object({ name: z.string().describe('entry name') })), count: z.number().int().describe('entries') },
  annotations: READ_ONLY,
  logFields: (args) => ({ root: args.root }),
  handle: async () => ({ structured: { entries: [], count: 0 } }),
});

async function connect(
  definitions: ToolDefinition[],
  principals = new AsyncLocalPrincipalContext(),
  principal: Principal = UNRESTRICTED_PRINCIPAL,
  authors?: AsyncLocalChangeAuthor,
): Promise<{ client: Client; logger: RecordingLogger }> {
  const logger = new RecordingLogger();
  const server = new McpServerFactory(definitions, logger, principals, undefined, undefined, undefined, authors).create('session-7', principal);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'factory-test', version: '1' });
  await client.connect(clientTransport);
  return { client, logger };
}

describe('McpServerFactory', () => {
  it('registers every definition with its schemas and annotations', async () => {
    const { client } = await connect([readTool({ content: 'x' })]);
    expect(client.getServerVersion()?.name).toBe(SERVER_NAME);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'read_file',
      title: 'Read file',
      description: 'Reads a file.',
      annotations: { readOnlyHint: true, openWorldHint: false },
      inputSchema: { type: 'object', required: ['root', 'path'] },
      outputSchema: { type: 'object', properties: { content: { type: 'string' } } },
    });
  });

  it('serves a call through invokeTool with the session id in the log', async () => {
    const { client, logger } = await connect([readTool({ content: 'hello' })]);
    const outcome = await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    expect(outcome).toMatchObject({ isError: false, structured: { content: 'hello' } });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ session: 'session-7', outcome: 'success' });
  });

  it('lists input schemas as rich as the zod shape: descriptions, required, enums, bounds, defaults', async () => {
    const { client } = await connect([richTool]);
    const [tool] = (await client.listTools()).tools;
    // Lean (issue 8): no $schema, and no safe-integer bounds on inputs, which the server checks itself.
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        root: { type: 'string', description: 'root name' },
        mode: { type: 'string', enum: ['overwrite', 'append'], default: 'overwrite', description: 'write mode' },
        limit_lines: { type: 'integer', minimum: 1, maximum: 100, description: 'lines to read' },
        view_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: 'range' },
      },
      required: ['root'],
      // Unknown parameters are rejected, and the listing says so.
      additionalProperties: false,
    });
    // Output schemas validate as declared on the server; descriptions, `required`, `additionalProperties: false`
    // and zod's ±2^53 integer bounds are left out of the listing, which asks less of a result, never more.
    expect(tool.outputSchema).toEqual({
      type: 'object',
      properties: {
        entries: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        count: { type: 'integer' },
      },
    });
    // taskSupport 'forbidden' is the spec default.
    expect(tool.execution).toBeUndefined();
  });

  it('E2E-073: a missing required parameter is an INVALID_ARGUMENT naming it, and the call is logged', async () => {
    const { client, logger } = await connect([readTool({ content: 'x' })]);
    const outcome = await callTool(client, 'read_file', { path: 'a.txt' });
    expect(outcome).toMatchObject({ isError: true, text: 'INVALID_ARGUMENT: invalid arguments for read_file: root: required' });
    expect((await callTool(client, 'read_file', { root: 'workspace' })).text).toBe('INVALID_ARGUMENT: invalid arguments for read_file: path: required');
    expect(logger.withMessage('tool call').map((entry) => entry.fields)).toEqual([
      expect.objectContaining({ tool: 'read_file', path: 'a.txt', outcome: 'error', error_code: 'INVALID_ARGUMENT', session: 'session-7' }),
      expect.objectContaining({ tool: 'read_file', root: 'workspace', outcome: 'error', error_code: 'INVALID_ARGUMENT', session: 'session-7' }),
    ]);
  });

  it('rejects a call without arguments like one with empty arguments', async () => {
    const { client } = await connect([readTool({ content: 'x' })]);
    const result = await client.callTool({ name: 'read_file' });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'INVALID_ARGUMENT: invalid arguments for read_file: root: required; path: required' }] });
  });

  it('answers an unknown tool with an INVALID_ARGUMENT result and logs it', async () => {
    const { client, logger } = await connect([readTool({ content: 'x' })]);
    expect(await callTool(client, 'read_fil', {})).toMatchObject({ isError: true, text: 'INVALID_ARGUMENT: unknown tool: read_fil' });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ tool: 'read_fil', outcome: 'error', error_code: 'INVALID_ARGUMENT' });
  });

  it('never sends a result that breaks the outputSchema: INTERNAL_ERROR, and the issues logged at ERROR', async () => {
    const { client, logger } = await connect([readTool({ content: 42 })]);
    const outcome = await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    expect(outcome).toMatchObject({ isError: true, text: INTERNAL_ERROR_TEXT, structured: undefined });
    expect(logger.withMessage('tool result does not match its outputSchema')[0]).toMatchObject({
      level: 'error',
      fields: { tool: 'read_file', issues: 'content: expected string, got number' },
    });
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ outcome: 'error', error_code: 'INTERNAL_ERROR' });
  });

  it('refuses two definitions with the same name', () => {
    expect(() => new McpServerFactory([readTool({}), readTool({})], new RecordingLogger(), new AsyncLocalPrincipalContext())).toThrow('two tool definitions are named read_file');
  });

  it("runs every call of a session as the session's principal, and logs its name", async () => {
    const principals = new AsyncLocalPrincipalContext();
    const principal: Principal = { name: 'ci-agent', roots: ['docs'], readOnly: true };
    const seen: Principal[] = [];
    const probe = defineTool({
      ...readTool({}),
      outputSchema: undefined,
      handle: async () => {
        await Promise.resolve();
        seen.push(principals.current());
        return { text: 'ok' };
      },
    });
    const { client, logger } = await connect([probe], principals, principal);
    await callTool(client, 'read_file', { root: 'docs', path: 'a.txt' });
    expect(seen).toEqual([principal]);
    expect(principals.current()).toBe(UNRESTRICTED_PRINCIPAL);
    expect(logger.withMessage('tool call')[0].fields).toMatchObject({ principal: 'ci-agent', session: 'session-7' });
  });

  describe('with the journal on (a change author context bound)', () => {
    afterEach(() => jest.restoreAllMocks());

    /** A tool that reports the change author it sees after an await, as a journaled write would read it. */
    const authorProbe = (name: string, annotations: typeof READ_ONLY, authors: AsyncLocalChangeAuthor): ToolDefinition =>
      defineTool({
        name,
        title: name,
        description: name,
        inputSchema: { root: z.string() },
        annotations,
        logFields: (args) => ({ root: args.root }),
        handle: async () => {
          await new Promise<void>((resolve) => setImmediate(resolve));
          return { text: authors.current()?.tool ?? '(none)' };
        },
      });

    it('read-only calls in flight together take no AsyncLocalStorage store (whose promise hooks would slow every later call) and are named no author', async () => {
      const authors = new AsyncLocalChangeAuthor();
      const { client } = await connect([authorProbe('read_file', READ_ONLY, authors)], undefined, undefined, authors);
      const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => callTool(client, 'read_file', { root: 'w' })));
      expect(outcomes.map((outcome) => outcome.text)).toEqual(Array(5).fill('(none)'));
      expect(run).not.toHaveBeenCalled();
    });

    it('writing calls in flight together each still see their own author, the first alone and the others in stores', async () => {
      const authors = new AsyncLocalChangeAuthor();
      const tools = ['create_folder', 'undo_changes', 'touch'];
      const { client } = await connect(tools.map((name) => authorProbe(name, WRITES, authors)), undefined, undefined, authors);
      const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
      const outcomes = await Promise.all(tools.map((name) => callTool(client, name, { root: 'w' })));
      expect(outcomes.map((outcome) => outcome.text)).toEqual(tools);
      expect(run).toHaveBeenCalledTimes(2);
    });
  });

  it('serves an empty tool list when no family is bound', async () => {
    const { client } = await connect([]);
    expect((await client.listTools()).tools).toEqual([]);
  });
});
