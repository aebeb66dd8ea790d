import { request } from 'node:http';
import type Koa from 'koa';
import { HttpAuthentication } from '../../src/adapters/inbound/http/auth/http-authentication.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { callTool } from '../support/mcp.js';
import { sample } from '../support/metrics.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { postMcp, sha256Hex } from '../support/raw-mcp.js';

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

describe('GET /metrics (Prometheus text format)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('counts tool calls by tool, root and outcome, latency, bytes, denials, open sessions and process metrics', async () => {
    const client = await server.connect();
    await callTool(client, 'write_file', { root: 'workspace', path: 'a.txt', content: 'hello' });
    await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    await callTool(client, 'read_file', { root: 'workspace', path: '../../etc/passwd' });
    await callTool(client, 'read_file', { root: 'made-up-root-name', path: 'a.txt' });
    const { status, type, body } = await scrape(server);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="write_file",root="workspace",outcome="success"}')).toBe(1);
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="read_file",root="workspace",outcome="success"}')).toBe(1);
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="read_file",root="workspace",outcome="error"}')).toBe(1);
    // A root name the client made up is not a label value (bounded series).
    expect(sample(body, 'mcp_fs_tool_calls_total{tool="read_file",root="other",outcome="error"}')).toBe(1);
    expect(body).not.toContain('made-up-root-name');
    expect(sample(body, 'mcp_fs_tool_call_duration_seconds_count{tool="read_file"}')).toBe(3);
    expect(sample(body, 'mcp_fs_bytes_total{direction="written"}')).toBe(5);
    expect(sample(body, 'mcp_fs_bytes_total{direction="read"}')).toBeGreaterThan(5);
    expect(sample(body, 'mcp_fs_security_denials_total{reason="ACCESS_DENIED"}')).toBe(1);
    expect(sample(body, 'mcp_fs_open_sessions')).toBe(1);
    // The admission budget (issue 27.5): every request body was let in and given back once answered.
    expect(sample(body, 'mcp_fs_request_bytes_admitted_total')).toBeGreaterThan(4 * 'read_file'.length);
    expect(sample(body, 'mcp_fs_request_bytes_refused_total')).toBe(0);
    expect(sample(body, 'mcp_fs_inflight_request_bytes')).toBe(0);
    expect(sample(body, 'mcp_fs_process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('stays behind the Host guard', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.baseUrl}/metrics`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('/metrics with authentication on', () => {
  const TOKEN = 'metrics-test-token-0123';
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ auth: { mode: 'tokens', tokens: [{ name: 'prometheus', sha256: sha256Hex(TOKEN), readOnly: true }] } });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('counts auth failures by reason, and loopback may scrape without a token', async () => {
    await (await postMcp(server.url, { bearer: 'wrong' })).body?.cancel();
    await (await postMcp(server.url)).body?.cancel();
    const { status, body } = await scrape(server);
    expect(status).toBe(200);
    expect(sample(body, 'mcp_fs_auth_failures_total{reason="unknown_token"}')).toBe(1);
    expect(sample(body, 'mcp_fs_auth_failures_total{reason="missing_token"}')).toBe(1);
    expect(body).not.toContain('wrong');
  });

  it('from another host, needs a valid token', async () => {
    const config: AppConfig = { ...server.config };
    const auth = new HttpAuthentication(config, new RecordingLogger());
    const remote = (authorization: string) =>
      ({ req: { socket: { remoteAddress: '10.0.0.5' } }, get: (name: string) => (name === 'authorization' ? authorization : '') }) as unknown as Koa.Context;
    await expect(auth.allowsMetrics(remote(''))).resolves.toBe(false);
    await expect(auth.allowsMetrics(remote('Bearer nope'))).resolves.toBe(false);
    await expect(auth.allowsMetrics(remote(`Bearer ${TOKEN}`))).resolves.toBe(true);
    const local = { req: { socket: { remoteAddress: '::ffff:127.0.0.1' } }, get: () => '' } as unknown as Koa.Context;
    await expect(auth.allowsMetrics(local)).resolves.toBe(true);
  });
});

describe('metrics.enabled: false', () => {
  it('serves no /metrics', async () => {
    const server = await startTestServer({ metrics: { enabled: false } });
    try {
      expect((await scrape(server)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
