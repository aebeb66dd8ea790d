import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The built server (dist/) over stdio with `config` written into `dir`; close the client to stop it. */
export async function stdioClient(dir: string, config: string, name = 'stdio-test'): Promise<Client> {
  await writeFile(join(dir, 'config.yaml'), config);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
    env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
    stderr: 'ignore',
  });
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return client;
}
