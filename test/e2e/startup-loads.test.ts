import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';

// Issue 31.1: what a stdio start-up does not need before its first answer, it does not load.
describe('a stdio start-up loads what its first answer needs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-startup-loads-'));
    await writeFile(join(dir, 'note.txt'), 'needle\n');
    await writeFile(join(dir, 'config.yaml'), ['log_level: error', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(dir)}`, '    allowed_tools: ["*"]', ''].join('\n'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('maps the RE2 addon on the first pattern, not before', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
      env: { PATH: process.env.PATH ?? '', MCP_FS_JOURNAL_ENABLED: 'false' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'startup-loads', version: '1' });
    await client.connect(transport);
    const re2Mapped = async () => (await readFile(`/proc/${transport.pid}/maps`, 'utf8')).includes('re2.node');
    try {
      expect((await callTool(client, 'read_file', { root: 'workspace', path: 'note.txt' })).isError).toBeFalsy();
      expect(await re2Mapped()).toBe(false);
      expect((await callTool(client, 'grep', { root: 'workspace', pattern: 'need+le' })).isError).toBeFalsy();
      expect(await re2Mapped()).toBe(true);
    } finally {
      await client.close();
    }
  });
});
