import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 27: an undo never widens permissions. remove_folder of a private tree, then undo_changes,
// through the real server and the SDK client: every folder has its mode again, exactly.

let server: TestServer;
let client: Client;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  client = await server.connect();
  root = server.rootPath('workspace');
});

afterAll(async () => {
  await server.stop();
});

async function ok(tool: string, args: Record<string, unknown>): Promise<any> {
  const outcome = await callTool(client, tool, args);
  if (outcome.isError) throw new Error(`${tool} failed: ${outcome.text}`);
  return outcome.structured;
}

/** The mode bits of each path under the root. */
async function modes(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(async (path) => ((await stat(join(root, path))).mode & 0o7777).toString(8)));
}

const PATHS = ['private', 'private/secret', 'private/secret/sealed', 'private/open', 'private/a.txt', 'private/secret/key', 'private/secret/sealed/s.txt'];

describe('undo_changes of remove_folder gives every folder its mode back', () => {
  it('a 0750 folder holding 0700, 0555 and 0777 folders comes back with exactly those modes, files byte for byte', async () => {
    // Explicit chmods: the umask would otherwise decide what mkdir makes.
    const made: Array<[string, number]> = [['private', 0o750], ['private/secret', 0o700], ['private/secret/sealed', 0o755], ['private/open', 0o755]];
    for (const [path, mode] of made) {
      await mkdir(join(root, path));
      await chmod(join(root, path), mode);
    }
    await writeFile(join(root, 'private/a.txt'), 'a\n');
    await chmod(join(root, 'private/a.txt'), 0o640);
    await writeFile(join(root, 'private/secret/key'), 'key\n');
    await chmod(join(root, 'private/secret/key'), 0o600);
    await writeFile(join(root, 'private/secret/sealed/s.txt'), 's\n');
    await chmod(join(root, 'private/secret/sealed/s.txt'), 0o444);
    await chmod(join(root, 'private/secret/sealed'), 0o555);
    await chmod(join(root, 'private/open'), 0o777);
    const before = await modes(PATHS);
    expect(before).toEqual(['750', '700', '555', '777', '640', '600', '444']);

    await ok('remove_folder', { root: 'workspace', path: 'private' });
    await expect(stat(join(root, 'private'))).rejects.toThrow();
    const { changes } = await ok('list_changes', { limit: 1 });
    expect(changes[0]).toMatchObject({ tool: 'remove_folder', op: 'rmdir', undoable: true });

    const { results } = await ok('undo_changes', { ids: [changes[0].id] });
    expect(results).toEqual([{ id: changes[0].id, op: 'rmdir', root: 'workspace', path: 'private', outcome: 'restored' }]);
    expect(await modes(PATHS)).toEqual(before);
    expect(await readFile(join(root, 'private/secret/key'), 'utf8')).toBe('key\n');
    expect(await readFile(join(root, 'private/secret/sealed/s.txt'), 'utf8')).toBe('s\n');
  });
});
