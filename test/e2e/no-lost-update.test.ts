import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spawnServer, workspaceConfig, type SpawnedServer } from '../support/spawned-server.js';

// Issue 9: N agents edit one file at the same moment. Every acknowledged edit must be in the
// file; an edit that could not be applied on top of the others must say CONFLICT.
const N = 20;
const LINES = 200;
const original = Array.from({ length: LINES }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
/** Lines 1, 11, 21, ...: far enough apart that no two hunks touch each other. */
const lineOf = (i: number) => i * 10 + 1;
const patchFor = (i: number) => `@@ -${lineOf(i)},1 +${lineOf(i)},1 @@\n-line ${lineOf(i)}\n+edited ${lineOf(i)} by ${i}\n`;

let dir: string;
let workspace: string;
const servers: SpawnedServer[] = [];
let inProcess: TestServer | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-lost-update-')));
  workspace = join(dir, 'workspace');
  await mkdir(workspace);
  await writeFile(join(workspace, 'shared.txt'), original);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await inProcess?.stop();
  inProcess = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Two server processes on one root; N clients (one session each), alternating between them. */
async function twoProcessClients(env: NodeJS.ProcessEnv = {}): Promise<Client[]> {
  const config = await workspaceConfig(dir, workspace);
  servers.push(await spawnServer(config, env), await spawnServer(config, env));
  return Promise.all(Array.from({ length: N }, (_, i) => servers[i % 2].connect()));
}

function expectNoLostEdit(outcomes: ToolCallOutcome[], content: string, applied: (i: number) => string): void {
  let succeeded = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome.isError) {
      expect(outcome.text).toMatch(/^(CONFLICT|FILE_CHANGED_SINCE_VIEW): /);
    } else {
      succeeded += 1;
      expect(content).toContain(applied(i));
    }
  });
  // The locks serialise the edits: every one of them lands.
  expect(succeeded).toBe(N);
  expect(content.split('\n')).toHaveLength(LINES + 1);
}

async function patchConcurrently(clients: Client[]): Promise<void> {
  const outcomes = await Promise.all(
    clients.map((client, i) => callTool(client, 'patch_file', { root: 'workspace', path: 'shared.txt', patch: patchFor(i) })),
  );
  expectNoLostEdit(outcomes, await readFile(join(workspace, 'shared.txt'), 'utf8'), (i) => `edited ${lineOf(i)} by ${i}`);
  // No lock or temp file is left behind once the edits are answered.
  expect(await readdir(workspace)).toEqual(['shared.txt']);
}

async function strReplaceConcurrently(clients: Client[], viewFirst: boolean): Promise<void> {
  if (viewFirst) for (const client of clients) expect((await callTool(client, 'view', { path: '/workspace/shared.txt' })).isError).toBe(false);
  const outcomes = await Promise.all(
    clients.map((client, i) =>
      callTool(client, 'str_replace', { path: '/workspace/shared.txt', old_str: `line ${lineOf(i)}\n`, new_str: `replaced ${lineOf(i)} by ${i}\n` }),
    ),
  );
  const content = await readFile(join(workspace, 'shared.txt'), 'utf8');
  if (!viewFirst) {
    expectNoLostEdit(outcomes, content, (i) => `replaced ${lineOf(i)} by ${i}`);
    return;
  }
  // With the gate on, a session whose view is older than another session's edit is refused
  // (FILE_CHANGED_SINCE_VIEW): never lost, and every acknowledged edit is in the file.
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.isError) expect(outcome.text).toMatch(/^(CONFLICT|FILE_CHANGED_SINCE_VIEW): /);
    else expect(content).toContain(`replaced ${lineOf(i)} by ${i}`);
  }
  expect(outcomes.some((outcome) => !outcome.isError)).toBe(true);
}

describe('no lost update (issue 9)', () => {
  it('20 concurrent patch_file calls in one server process: every edit lands', async () => {
    inProcess = await startTestServer();
    await writeFile(join(inProcess.rootPath('workspace'), 'shared.txt'), original);
    workspace = inProcess.rootPath('workspace');
    const server = inProcess;
    const clients = await Promise.all(Array.from({ length: N }, () => server.connect()));
    await patchConcurrently(clients);
  });

  it('20 concurrent patch_file calls across two server processes on one root: every edit lands', async () => {
    await patchConcurrently(await twoProcessClients());
  });

  it('str_replace across two processes, view gate off: every edit lands', async () => {
    await strReplaceConcurrently(await twoProcessClients({ MCP_FS_REQUIRE_VIEW_BEFORE_EDIT: 'false' }), false);
  });

  it('str_replace edits[] (one of them whitespace-drifted) with dry runs interleaved, across two processes: every edit lands, dry runs change nothing', async () => {
    const clients = await twoProcessClients({ MCP_FS_REQUIRE_VIEW_BEFORE_EDIT: 'false' });
    const outcomes = await Promise.all(
      clients.map((client, i) =>
        callTool(client, 'str_replace', {
          path: '/workspace/shared.txt',
          edits: [
            { old_str: `line ${lineOf(i)}\n`, new_str: `replaced ${lineOf(i)} by ${i}\n` },
            { old_str: `\t line ${lineOf(i) + 1}  `, new_str: `also ${lineOf(i) + 1} by ${i}` },
          ],
        }),
      ),
    );
    const dryRuns = await Promise.all(
      clients.map((client, i) => callTool(client, 'write_file', { root: 'workspace', path: 'shared.txt', content: `dry ${i}\n`, dry_run: true })),
    );
    const content = await readFile(join(workspace, 'shared.txt'), 'utf8');
    expectNoLostEdit(outcomes, content, (i) => `replaced ${lineOf(i)} by ${i}\nalso ${lineOf(i) + 1} by ${i}\n`);
    for (const outcome of outcomes) expect(outcome.structured).toMatchObject({ replacements_per_edit: [1, 1], match: 'whitespace_tolerant' });
    for (const dry of dryRuns) expect(dry.structured).toMatchObject({ dry_run: true });
    expect(content).not.toContain('dry ');
    expect(await readdir(workspace)).toEqual(['shared.txt']);
  });

  it('str_replace across two processes, view gate on: acknowledged edits land, the rest say why', async () => {
    await strReplaceConcurrently(await twoProcessClients({ MCP_FS_REQUIRE_VIEW_BEFORE_EDIT: 'true' }), true);
  });

  it('file_write across two processes: the file is exactly one acknowledged write, never torn', async () => {
    const clients = await twoProcessClients();
    const contentOf = (i: number) => `written by ${i}\n`.repeat(2000);
    const outcomes = await Promise.all(clients.map((client, i) => callTool(client, 'file_write', { path: '/workspace/shared.txt', content: contentOf(i) })));
    const content = await readFile(join(workspace, 'shared.txt'), 'utf8');
    const winners = outcomes.flatMap((outcome, i) => (outcome.isError ? [] : [contentOf(i)]));
    for (const outcome of outcomes) if (outcome.isError) expect(outcome.text).toMatch(/^CONFLICT: /);
    expect(winners).toContain(content);
  });

  it('write_file appends across two processes lose nothing', async () => {
    const clients = await twoProcessClients();
    const outcomes = await Promise.all(
      clients.map((client, i) => callTool(client, 'write_file', { root: 'workspace', path: 'log.txt', content: `entry ${i}\n`, mode: 'append' })),
    );
    expect(outcomes.every((outcome) => !outcome.isError)).toBe(true);
    const lines = (await readFile(join(workspace, 'log.txt'), 'utf8')).trim().split('\n').sort();
    expect(lines).toEqual(Array.from({ length: N }, (_, i) => `entry ${i}`).sort());
  });
});
