import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnServer, workspaceConfig } from '../support/spawned-server.js';

// The built server (`npm test` builds dist/ first): what a stdio start parses is dist/main.js and the
// chunks it imports statically; the HTTP stack sits in chunks main.js imports only with import().
const DIST = join(process.cwd(), 'dist');
const MAIN = join(DIST, 'main.js');

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

/** dist/main.js and every file it imports statically (not `import(...)`), transitively. */
async function staticClosure(entry: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    const code = await readFile(file, 'utf8');
    files.set(file, code);
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+)["']/g)) pending.push(join(dirname(file), match[1]));
  }
  return files;
}

async function allChunks(): Promise<string> {
  const names = (await readdir(join(DIST, 'chunks'))).filter((name) => name.endsWith('.js'));
  return (await Promise.all(names.map((name) => readFile(join(DIST, 'chunks', name), 'utf8')))).join('\n');
}

describe('the stdio bundle', () => {
  it('does not contain the HTTP stack, which the lazily imported chunks do', async () => {
    const closure = [...(await staticClosure(MAIN)).values()].join('\n');
    const everything = `${closure}\n${await allChunks()}`;
    for (const [what, marker] of Object.entries(HTTP_ONLY_MARKERS)) {
      expect({ what, inDist: everything.includes(marker) }).toEqual({ what, inDist: true });
      expect({ what, inStdioBundle: closure.includes(marker) }).toEqual({ what, inStdioBundle: false });
    }
  });

  it("loads the SDK's Ajv provider from node_modules only when a validator is asked for", async () => {
    const closure = [...(await staticClosure(MAIN)).values()].join('\n');
    expect(closure).toContain('@modelcontextprotocol/server/validators/ajv');
    expect(closure).not.toContain('json-schema-draft-07');
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
      // A module hook that records every file the server process loads (hooks run off-thread in Node 20).
      await writeFile(
        join(dir, 'hooks.mjs'),
        [
          "import { appendFileSync } from 'node:fs';",
          'let log;',
          'export function initialize(data) { log = data.log; }',
          "export async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(log, url + '\\n'); return next(url, context); }",
        ].join('\n'),
      );
      hook = join(dir, 'register.mjs');
      await writeFile(
        hook,
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(loadLog)} } });\n`,
      );
    });

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('initializes and serves read_file, loading no lazily imported chunk', async () => {
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
      const loaded = (await readFile(loadLog, 'utf8'))
        .split('\n')
        .filter((url) => url.startsWith(pathToFileURL(DIST).href))
        .map((url) => fileURLToPath(url));
      const closure = [...(await staticClosure(MAIN)).keys()];
      expect(loaded).toContain(MAIN);
      expect(loaded.filter((file) => !closure.includes(file))).toEqual([]);
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
