import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServerFactory, SERVER_NAME } from '../../../../src/adapters/inbound/mcp/server-factory.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../../../src/adapters/inbound/mcp/tool-definition.js';
import { callTool } from '../../../support/mcp.js';
import { RecordingLogger } from '../../../support/recording-logger.js';

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

async function connect(definitions: ToolDefinition[]): Promise<{ client: Client; logger: RecordingLogger }> {
  const logger = new RecordingLogger();
  const server = new McpServerFactory(definitions, logger).create('session-7');
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
      annotations: { title: 'Read file', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
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

  it('E2E-073: a missing required parameter is an error naming it, without a stack', async () => {
    const { client, logger } = await connect([readTool({ content: 'x' })]);
    const outcome = await callTool(client, 'read_file', { path: 'a.txt' });
    expect(outcome.isError).toBe(true);
    // The SDK's wording: `... Input validation error: Invalid arguments for tool read_file:
    // Invalid input: expected string, received undefined at root`.
    expect(outcome.text).toMatch(/Input validation error/);
    expect(outcome.text).toMatch(/received undefined at root$/);
    expect((await callTool(client, 'read_file', { root: 'workspace' })).text).toMatch(/received undefined at path$/);
    expect(outcome.text).not.toMatch(/\n\s+at /);
    // The SDK rejects the call before the handler runs, so no call is logged.
    expect(logger.withMessage('tool call')).toEqual([]);
  });

  it('validates structured output against the output schema', async () => {
    const { client } = await connect([readTool({ content: 42 })]);
    const outcome = await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/Output validation error/);
  });

  it('refuses two definitions with the same name', () => {
    expect(() => new McpServerFactory([readTool({}), readTool({})], new RecordingLogger())).toThrow('two tool definitions are named read_file');
  });

  it('serves an empty tool list when no family is bound', async () => {
    const { client } = await connect([]);
    expect((await client.listTools()).tools).toEqual([]);
  });
});
