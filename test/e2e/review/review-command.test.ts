import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../support/browser.js';
import { callTool } from '../../support/mcp.js';
import { scratchWorkspace, spawnServer, workspaceConfig } from '../../support/spawned-server.js';

// Issue 30 §2: `mcp-filesystem review` serves the page on loopback for the journal a server writes,
// with a one-time token in the URL's fragment.

const MAIN = join(process.cwd(), 'dist', 'main.js');

describe('mcp-filesystem review', () => {
  const scratch = scratchWorkspace('mcp-fs-review-');
  let review: ChildProcess | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    if (review && review.exitCode === null) {
      const exited = new Promise((resolve) => review!.once('exit', resolve));
      review.kill('SIGTERM');
      await exited;
    }
    review = undefined;
  });

  it('prints a loopback URL with a one-time token in its fragment; the page shows the server\'s changes, live, without asking', async () => {
    const config = await workspaceConfig(scratch.dir, scratch.workspace);
    const env = { MCP_FS_JOURNAL_DIR: join(dirname(config), 'journal-state') };
    scratch.server = await spawnServer(config);
    const client = await scratch.server.connect();
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'before.txt', content: 'made by the agent\n' })).isError).toBe(false);

    review = spawn(process.execPath, [MAIN, 'review', '--config', config], { env: { PATH: process.env.PATH, MCP_FS_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    review.stderr!.on('data', (chunk) => (log += String(chunk)));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: review!.stdout! }).once('line', resolve);
      review!.once('exit', (code) => reject(new Error(`review exited with ${code}: ${log}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/changes#token=[A-Za-z0-9_-]{43}$/);
    const [page, token] = url.split('#token=');

    expect((await fetch(`${page}/api/changes`)).status).toBe(401);
    expect((await fetch(`${page}/api/changes`, { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
    const listed = (await (await fetch(`${page}/api/changes`, { headers: { authorization: `Bearer ${token}` } })).json()) as { changes: { path: string }[] };
    expect(listed.changes.map((change) => change.path)).toEqual(['before.txt']);

    browser = await launchChromium();
    const tab = await browser.newPage();
    await tab.goto(url);
    await tab.getByRole('heading', { name: 'workspace/before.txt' }).waitFor();
    expect(tab.url()).toBe(page);
    // Another process writes to the same journal: the page hears of it without a reload.
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'after.txt', content: 'later\n' })).isError).toBe(false);
    await tab.getByRole('heading', { name: 'workspace/after.txt' }).waitFor({ timeout: 10_000 });
    expect(log).not.toContain(token);
  });
});
