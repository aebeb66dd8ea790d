import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../support/mcp.js';
import { sample } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 32 (7): each entry of a batch is a call to the audit log, the metrics and the MCP log.

describe('read_files logs every denied path as read_file does', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('call log lines, security denials, MCP security_denial messages and metrics, entry by entry', async () => {
    const root = server.rootPath('workspace');
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    await symlink('/etc/passwd', join(root, 'passwd-link'));
    const client = await server.connect();
    const received: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      received.push(notification.params);
    });
    await client.setLoggingLevel('warning');

    const mixed = await callTool(client, 'read_files', { root: 'workspace', paths: ['a.txt', 'passwd-link', '../../etc/shadow'] });
    expect(mixed.isError).toBe(false);
    const allDenied = await callTool(client, 'read_files', { root: 'workspace', paths: ['passwd-link', '../../etc/shadow'] });
    expect(allDenied.isError).toBe(true);

    const calls = server.logger.withMessage('tool call').filter((entry) => entry.fields.tool === 'read_files');
    expect(calls.map((entry) => [entry.fields.path, entry.fields.outcome, entry.fields.error_code])).toEqual([
      ['a.txt', 'success', undefined],
      ['passwd-link', 'error', 'ACCESS_DENIED'],
      ['../../etc/shadow', 'error', 'ACCESS_DENIED'],
      ['passwd-link', 'error', 'ACCESS_DENIED'],
      ['../../etc/shadow', 'error', 'ACCESS_DENIED'],
    ]);
    for (const entry of calls) expect(entry.fields).toMatchObject({ root: 'workspace', principal: expect.any(String), session: expect.any(String) });

    const denials = server.logger.withMessage('security denial');
    expect(denials.map((entry) => [entry.fields.tool, entry.fields.attempted_path, entry.fields.error_code])).toEqual([
      ['read_files', 'passwd-link', 'ACCESS_DENIED'],
      ['read_files', '../../etc/shadow', 'ACCESS_DENIED'],
      ['read_files', 'passwd-link', 'ACCESS_DENIED'],
      ['read_files', '../../etc/shadow', 'ACCESS_DENIED'],
    ]);
    // The resolved host path is the server log's alone.
    expect(denials[0].fields.resolved_path).toEqual(expect.any(String));

    expect(received.map((message) => [message.level, (message.data as { event: string }).event, (message.data as { tool: string }).tool])).toEqual([
      ['error', 'security_denial', 'read_files'],
      ['error', 'security_denial', 'read_files'],
      ['error', 'security_denial', 'read_files'],
      ['error', 'security_denial', 'read_files'],
    ]);
    for (const message of received) expect(JSON.stringify(message)).not.toContain(root);
    expect((received[0].data as { message: string }).message).toMatch(/^ACCESS_DENIED: .*passwd-link/);

    const body = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="read_files",root="workspace",outcome="success"}')).toBe(1);
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="read_files",root="workspace",outcome="error"}')).toBe(4);
    expect(sample(body, 'mcp_fs_security_denials_total{reason="ACCESS_DENIED"}')).toBe(4);
  });

  it('a refusal of the whole call (an unknown root) is one call, logged once', async () => {
    const client = await server.connect();
    const before = server.logger.withMessage('tool call').length;
    const refused = await callTool(client, 'read_files', { root: 'nope', paths: ['a.txt', 'b.txt'] });
    expect(refused.text).toMatch(/^UNKNOWN_ROOT: /);
    const lines = server.logger.withMessage('tool call').slice(before);
    expect(lines.map((entry) => [entry.fields.tool, entry.fields.outcome, entry.fields.error_code])).toEqual([['read_files', 'error', 'UNKNOWN_ROOT']]);
  });
});
