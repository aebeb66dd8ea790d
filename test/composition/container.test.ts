import { join } from 'node:path';
import { HttpServer } from '../../src/adapters/inbound/http/http-app.js';
import { SessionRegistry } from '../../src/adapters/inbound/mcp/protocol/session-registry.js';
import { StdioServer } from '../../src/adapters/inbound/mcp/transports/stdio-transport.js';
import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { NodeFileSystem } from '../../src/adapters/outbound/node-file-system.js';
import { SystemClock } from '../../src/adapters/outbound/system-clock.js';
import { buildContainer } from '../../src/composition/container.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { ConfirmingFileSystem } from '../../src/domain/changes/confirming-file-system.js';
import { NotifyingFileSystem } from '../../src/domain/changes/notifying-file-system.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { callTool } from '../support/mcp.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { compositionConfig } from './app-config.js';

const CONFIG = compositionConfig({
  roots: [
    { name: 'workspace', path: '/srv/ws', allowedTools: ['*'] },
    { name: 'logs', path: '/srv/logs', allowedTools: ['read_file'] },
  ],
});

describe('buildContainer', () => {
  it('binds the production adapters and both entry points', () => {
    const container = buildContainer(CONFIG, { logger: new RecordingLogger() });
    // Every write is published to the change feed; with the journal off and confirm on (the default),
    // the confirming file system asks before what cannot be taken back, then the Node adapter makes it.
    expect(container.get(TOKENS.FileSystem)).toBeInstanceOf(NotifyingFileSystem);
    expect(container.get(TOKENS.NotifiedFileSystem)).toBeInstanceOf(ConfirmingFileSystem);
    expect(container.get(TOKENS.InnerFileSystem)).toBeInstanceOf(NodeFileSystem);
    expect(container.get(TOKENS.Clock)).toBeInstanceOf(SystemClock);
    expect(container.get(HttpServer)).toBeInstanceOf(HttpServer);
    expect(container.get(StdioServer)).toBeInstanceOf(StdioServer);
    expect(container.getAll(TOKENS.ToolDefinition).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_roots', 'read_file', 'write_file', 'grep', 'glob', 'view', 'str_replace']),
    );
  });

  it('builds the roots from the config, with "*" expanded', () => {
    const container = buildContainer(CONFIG, { logger: new RecordingLogger() });
    const paths = container.get(TOKENS.PathPolicy);
    expect(paths.root('workspace')).toMatchObject({ hostPath: '/srv/ws', configuredTools: ['*'] });
    expect(paths.root('workspace').allowedTools.has('patch_file')).toBe(true);
    expect([...paths.root('logs').allowedTools]).toEqual(['read_file']);
    expect(() => container.get(RootAccess).path('write_file', 'logs', 'a.txt')).toThrow('tool write_file not allowed on root logs');
  });

  it('works with no SessionEndListener bound', () => {
    const container = buildContainer(CONFIG, { logger: new RecordingLogger() });
    container.unbind(TOKENS.SessionEndListener);
    const registry = container.get(SessionRegistry);
    expect(registry.size).toBe(0);
  });
});

describe('swapping the file system adapter is one binding', () => {
  let server: TestServer;
  const fileSystem = new InMemoryFileSystem();

  beforeAll(async () => {
    server = await startTestServer({ overrides: { fileSystem } });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('serves read_file and write_file from the in-memory tree', async () => {
    fileSystem.seedFile(join(server.rootPath('workspace'), 'a.txt'), 'from memory');
    const client = await server.connect();

    expect((await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' })).structured).toMatchObject({ content: 'from memory' });
    await callTool(client, 'write_file', { root: 'workspace', path: 'b.txt', content: 'written' });
    expect(fileSystem.readText(join(server.rootPath('workspace'), 'b.txt'))).toBe('written');
  });
});
