import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');

type Message = LoggingMessageNotification['params'];

/** Everything the client receives as notifications/message, in order. */
function messagesOf(client: Client): Message[] {
  const received: Message[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    received.push(notification.params);
  });
  return received;
}

/** The MCP logging behaviour every transport must show (one client is given, connected to a root `workspace`). */
async function checkLogging(client: Client, other: Client, hostPath: string): Promise<void> {
  const received = messagesOf(client);
  const seenByOther = messagesOf(other);

  // Nothing before a level is set, even for a failed call.
  expect((await callTool(client, 'read_file', { root: 'workspace', path: 'missing.txt' })).isError).toBe(true);
  expect(received).toEqual([]);

  expect(await client.setLoggingLevel('warning')).toEqual({});
  const failed = await callTool(client, 'read_file', { root: 'workspace', path: 'missing.txt' });
  expect(received).toEqual([
    { level: 'warning', logger: 'mcp-filesystem', data: { event: 'tool_call_failed', tool: 'read_file', error_code: 'NOT_FOUND', message: failed.text } },
  ]);

  const denied = await callTool(client, 'read_file', { root: 'workspace', path: '../../etc/passwd' });
  expect(denied.text).toMatch(/^ACCESS_DENIED: /);
  expect(received[1]).toEqual({
    level: 'error',
    logger: 'mcp-filesystem',
    data: { event: 'security_denial', tool: 'read_file', error_code: 'ACCESS_DENIED', message: denied.text },
  });

  // At `error`, a plain failure is filtered out; a denial still comes.
  await client.setLoggingLevel('error');
  await callTool(client, 'read_file', { root: 'workspace', path: 'missing.txt' });
  await callTool(client, 'read_file', { root: 'workspace', path: '../outside' });
  expect(received.map((message) => (message.data as { event: string }).event)).toEqual(['tool_call_failed', 'security_denial', 'security_denial']);

  // A successful call logs nothing.
  await client.setLoggingLevel('debug');
  expect((await callTool(client, 'list_roots', {})).isError).toBe(false);
  expect(received).toHaveLength(3);

  // Never a host path; never another session's events (the other session set a level too).
  await other.setLoggingLevel('debug');
  await callTool(client, 'read_file', { root: 'workspace', path: 'missing-again.txt' });
  expect(received).toHaveLength(4);
  expect(seenByOther).toEqual([]);
  expect(JSON.stringify(received)).not.toContain(hostPath);

  // A level outside RFC 5424 is refused and changes nothing.
  await expect(client.setLoggingLevel('verbose' as never)).rejects.toThrow('MCP error -32602: INVALID_ARGUMENT: logging/setLevel: level must be one of debug, info, notice, warning, error, critical, alert, emergency');
  await callTool(client, 'read_file', { root: 'workspace', path: 'missing.txt' });
  expect(received).toHaveLength(5);
}

describe('MCP logging over Streamable HTTP', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer();
  });

  afterEach(async () => {
    await server.stop();
  });

  it('declares logging, and sends each session its own failed calls and denials at or above its level', async () => {
    const client = await server.connect();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await checkLogging(client, await server.connect(), server.rootPath('workspace'));
  });
});

describe('MCP logging over stdio', () => {
  let dir: string;
  const clients: Client[] = [];

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-log-')));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await rm(dir, { recursive: true, force: true });
  });

  async function stdioClient(): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, join(dir, 'workspace')],
      env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'logging-test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('declares logging, and sends each session its own failed calls and denials at or above its level', async () => {
    await mkdir(join(dir, 'workspace'));
    const client = await stdioClient();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await checkLogging(client, await stdioClient(), dir);
  });
});
