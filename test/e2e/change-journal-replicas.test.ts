import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { spawnServer, workspaceConfig, type SpawnedServer } from '../support/spawned-server.js';

// Issue 20: two server processes over one root and one shared journal directory (as replicas behind
// a load balancer share them): any of them lists and undoes the other's changes, and two undos of one
// change at once restore it once.

describe('change journal shared by two server processes', () => {
  let dir: string;
  let root: string;
  let replicas: SpawnedServer[] = [];

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-replicas-')));
    root = join(dir, 'workspace');
    await mkdir(root);
    const config = await workspaceConfig(dir, root);
    replicas = await Promise.all([spawnServer(config), spawnServer(config)]);
  });

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  const structured = async (client: Client, tool: string, args: Record<string, unknown>) => {
    const outcome = await callTool(client, tool, args);
    if (outcome.isError) throw new Error(outcome.text);
    return outcome.structured;
  };

  it('lists on one and undoes on the other', async () => {
    const [one, two] = await Promise.all(replicas.map((replica) => replica.connect()));
    await writeFile(join(root, 'shared.txt'), 'original\n');
    await structured(one, 'write_file', { root: 'workspace', path: 'shared.txt', content: 'changed on one\n' });
    const { changes } = await structured(two, 'list_changes', { path: 'shared.txt', root: 'workspace' });
    expect(changes).toHaveLength(1);
    const { results } = await structured(two, 'undo_changes', { ids: [changes[0].id] });
    expect(results[0].outcome).toBe('restored');
    expect(await readFile(join(root, 'shared.txt'), 'utf8')).toBe('original\n');
    const seenByOne = await structured(one, 'list_changes', { path: 'shared.txt', root: 'workspace' });
    expect(seenByOne.changes.map((change: { tool: string; undoable: boolean }) => [change.tool, change.undoable])).toEqual([
      ['undo_changes', true],
      ['write_file', false],
    ]);
  });

  it('two undos of one change at once, one per process: one restores, the other gets conflict', async () => {
    const [one, two] = await Promise.all(replicas.map((replica) => replica.connect()));
    for (let round = 0; round < 5; round += 1) {
      const name = `race-${round}.txt`;
      await writeFile(join(root, name), 'v1\n');
      await structured(one, 'write_file', { root: 'workspace', path: name, content: 'v2\n' });
      const [change] = (await structured(one, 'list_changes', { root: 'workspace', path: name })).changes;
      const outcomes = await Promise.all([one, two].map(async (client) => (await structured(client, 'undo_changes', { ids: [change.id] })).results[0].outcome));
      expect(outcomes.filter((outcome: string) => outcome === 'restored')).toHaveLength(1);
      expect(outcomes.filter((outcome: string) => outcome !== 'restored')).toHaveLength(1);
      expect(await readFile(join(root, name), 'utf8')).toBe('v1\n');
      const undos = (await structured(two, 'list_changes', { root: 'workspace', path: name })).changes.filter((listed: { tool: string }) => listed.tool === 'undo_changes');
      expect(undos).toHaveLength(1);
    }
  });
});
