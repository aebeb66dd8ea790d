import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnServer, workspaceConfig } from '../support/spawned-server.js';

// The built server (`npm test` builds dist/ first): dist/main.js runs the one bundle dist/server.cjs,
// where the HTTP stack sits behind the lazy wrappers of what main.ts imports with import().
const DIST = join(process.cwd(), 'dist');
const MAIN = join(DIST, 'main.js');
const BUNDLE = join(DIST, 'server.cjs');

/** Strings only the HTTP side's code contains (keepNames keeps our class names in the bundle). */
const HTTP_ONLY_MARKERS = {
  koa: 'koa:application',
  '@koa/router': 'koa-router',
  ioredis: 'ioredis:connect',
  'prom-client': 'process_cpu_user_seconds_total',
  jose: 'ERR_JWS_INVALID',
  'the Streamable HTTP transport': '"NodeStreamableHttpTransport"',
  HttpServer: '"HttpServer"',
  HttpAuthentication: '"HttpAuthentication"',
  PrometheusMetrics: '"PrometheusMetrics"',
  RedisSessionState: '"RedisSessionState"',
  RedisChangeJournal: '"RedisChangeJournal"',
};

describe('the server bundle', () => {
  it('holds the HTTP stack, and the launcher does not', async () => {
    const bundle = await readFile(BUNDLE, 'utf8');
    const launcher = await readFile(MAIN, 'utf8');
    for (const [what, marker] of Object.entries(HTTP_ONLY_MARKERS)) {
      expect({ what, inBundle: bundle.includes(marker), inLauncher: launcher.includes(marker) }).toEqual({ what, inBundle: true, inLauncher: false });
    }
  });

  it("loads the SDK's Ajv provider from node_modules only when a validator is asked for", async () => {
    const bundle = await readFile(BUNDLE, 'utf8');
    expect(bundle).toContain('@modelcontextprotocol/server/validators/ajv');
    expect(bundle).not.toContain('json-schema-draft-07');
    const { AjvJsonSchemaValidator } = createRequire(MAIN)('@modelcontextprotocol/server/validators/ajv');
    const validate = new AjvJsonSchemaValidator().getValidator({ type: 'object', required: ['a'] });
    expect(validate({ a: 1 }).valid).toBe(true);
    expect(validate({}).valid).toBe(false);
  });

  describe('served over stdio', () => {
    let dir: string;
    let loadLog: string;
    let hook: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mcpfs-stdio-bundle-'));
      loadLog = join(dir, 'loaded.txt');
      await mkdir(join(dir, 'served'));
      await writeFile(join(dir, 'served', 'hello.txt'), 'hello from the bundle\n');
      // A preload that records, as the process exits, every Node built-in it loaded.
      hook = join(dir, 'record-builtins.mjs');
      await writeFile(
        hook,
        `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(loadLog)}, process.moduleLoadList.join('\\n')));\n`,
      );
    });

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('initializes and serves read_file, evaluating none of the HTTP stack (no http built-in loaded)', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', pathToFileURL(hook).href, MAIN, join(dir, 'served')],
        env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'stdio-bundle-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = await client.callTool({ name: 'read_file', arguments: { root: 'served', path: 'hello.txt' } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ content: 'hello from the bundle\n' });
      } finally {
        await client.close();
      }
      let loaded = '';
      for (let i = 0; i < 200 && loaded === ''; i += 1) {
        loaded = await readFile(loadLog, 'utf8').catch(() => '');
        if (loaded === '') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const builtins = loaded.split('\n');
      expect(builtins).toContain('NativeModule fs');
      expect(builtins.filter((entry) => /^NativeModule (http|https|http2|_http_server)$/.test(entry))).toEqual([]);
    });
  });

  it('still serves HTTP from the lazily imported chunks (/health, /metrics)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpfs-http-bundle-'));
    const root = join(dir, 'workspace');
    await mkdir(root);
    // The root is a folder of its own: the change journal (on by default) lives next to the config, outside it.
    const server = await spawnServer(await workspaceConfig(dir, root));
    try {
      const base = new URL(server.url).origin;
      expect(await (await fetch(`${base}/health`)).text()).toBe('ok');
      expect(await (await fetch(`${base}/metrics`)).text()).toContain('mcp_fs_tool_calls_total');
      const client = await server.connect();
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('read_file');
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
