import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';

const run = promisify(execFile);
// npm installs the dependencies from the registry and compiles re2 from source: minutes, not seconds
// (3.5 min of CPU; 15 min wall clock on a loaded 2-core machine).
const INSTALL_TIMEOUT_MS = 20 * 60 * 1000;

let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-pack-')));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the packed tarball, installed into an empty prefix', () => {
  it(
    'gives a working mcp-filesystem command that needs nothing from the source tree',
    async () => {
      // dist/ is already built (`npm test` builds first), so pack without running prepare again.
      await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024 });
      const tarball = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
      // Our own package name: `mcp-filesystem` on the registry is an unrelated package (issue 27).
      expect(tarball).toMatch(/^mcp-sandboxed-filesystem-\d+\.\d+\.\d+.*\.tgz$/);

      const prefix = join(dir, 'prefix');
      await mkdir(prefix);
      // npm 11 runs a dependency's install script only where the installing project allows it.
      await writeFile(join(prefix, 'package.json'), JSON.stringify({ name: 'pack-test', private: true, allowScripts: { re2: true } }));
      await run('npm', ['install', '--no-audit', '--no-fund', join(dir, tarball!)], { cwd: prefix, maxBuffer: 64 * 1024 * 1024 });

      const project = join(dir, 'project');
      await mkdir(project);
      await writeFile(join(project, 'hello.txt'), 'hello from the package\n');
      const transport = new StdioClientTransport({
        command: join(prefix, 'node_modules', '.bin', 'mcp-filesystem'),
        args: [project],
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
      });
      const client = new Client({ name: 'pack-test', version: '1' });
      await client.connect(transport);
      try {
        expect((await callTool(client, 'list_roots', {})).structured).toEqual({ roots: [{ name: 'project', allowed_tools: ['*'] }] });
        const read = await callTool(client, 'read_file', { root: 'project', path: 'hello.txt' });
        expect(read.structured).toMatchObject({ content: 'hello from the package\n' });
        // grep goes through re2, the one dependency the bundle leaves outside (a native addon).
        const grep = await callTool(client, 'grep', { root: 'project', pattern: 'hel+o' });
        expect(grep.isError).toBe(false);
        expect(JSON.stringify(grep.structured)).toContain('hello.txt');
      } finally {
        await client.close();
      }
    },
    INSTALL_TIMEOUT_MS,
  );
});
