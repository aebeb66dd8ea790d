import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';

/** How both SDK generations spawn the built server over stdio, its config written into `dir`. */
export async function serverParameters(dir: string, config: string, logLevel = 'error') {
  await writeFile(join(dir, 'config.yaml'), config);
  return {
    command: process.execPath,
    args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
    env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: logLevel },
    stderr: logLevel === 'error' ? ('ignore' as const) : ('pipe' as const),
  };
}

/** The built server (dist/) over stdio with `config` written into `dir`; close the client to stop it. */
export async function stdioClient(dir: string, config: string, name = 'stdio-test'): Promise<Client> {
  const transport = new StdioClientTransport(await serverParameters(dir, config));
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return client;
}

/**
 * The built server over stdio with a v2 SDK client. `mode: 'auto'` probes with server/discover
 * (on a sibling process, as the SDK does) before it opens the session; a pin speaks 2026-07-28 only.
 */
export async function modernStdioClient(
  dir: string,
  config: string,
  mode: 'auto' | { pin: '2026-07-28' } = { pin: '2026-07-28' },
  /** Given, the server logs at info and each stderr line (its JSON log) is handed here. */
  onLogLine?: (line: string) => void,
): Promise<ModernClient> {
  const transport = new ModernStdioTransport(await serverParameters(dir, config, onLogLine === undefined ? 'error' : 'info'));
  if (onLogLine !== undefined) {
    let pending = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(onLogLine);
    });
  }
  const client = new ModernClient({ name: 'modern-stdio-test', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}
