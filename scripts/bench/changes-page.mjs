// Issue 30 §4: the /changes page with 500 changes, in headless Chromium (Debian's, through
// playwright-core): from navigation until the list is drawn and the main thread is free again, and
// how long the first Undo click takes to show its dry run. A bench row, never a timed test.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { call, ourHttp } from './servers.mjs';
import { latency } from './stats.mjs';

const CHANGES = 500;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function changesPage(ctx) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
  const rounds = ctx.quick ? 3 : 10;
  const journalDir = mkdtempSync(join(tmpdir(), 'mcpfs-bench-review-'));
  const folder = join(ctx.corpus, 'review-bench');
  mkdirSync(folder, { recursive: true });
  const server = await ourHttp(ctx.config, { MCP_FS_JOURNAL_DIR: journalDir });
  const client = await server.connect();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const ready = [];
  const clicks = [];
  const lists = [];
  try {
    // 100 files, 5 changes each: 100 groups, 500 changes, each with its buttons.
    for (let index = 0; index < CHANGES; index += 1) {
      await call(client, 'write_file', { root: 'bench', path: `review-bench/file-${index % 100}.txt`, content: `version ${index}\n`.repeat(1 + (index % 7)) });
    }
    const page = await browser.newPage();
    for (let round = 0; round < rounds; round += 1) {
      await page.goto(new URL('/changes', server.url).href);
      await page.waitForFunction((count) => document.querySelectorAll('li[data-id]').length >= count, CHANGES, { polling: 'raf' });
      // Drawn, and the main thread free for input again: the next task after the next frame.
      ready.push(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()))))));
      // Of which the list call (the server's part): its response's end, from navigation.
      lists.push(await page.evaluate(() => performance.getEntriesByType('resource').find((entry) => entry.name.includes('/changes/api/changes'))?.responseEnd ?? NaN));
      // Timed in the page, from the click to the dry run shown (a locator's own work would count otherwise).
      clicks.push(await page.evaluate(() => new Promise((resolve) => {
        const started = performance.now();
        document.querySelector('li[data-id] .actions button').click();
        const shown = () => (!document.getElementById('review').hidden && document.getElementById('review-body').textContent.includes('will be restored') ? resolve(performance.now() - started) : requestAnimationFrame(shown));
        shown();
      })));
    }
    const count = await page.locator('li[data-id]').count();
    if (count !== CHANGES) throw new Error(`the page showed ${count} changes, not ${CHANGES}`);
  } finally {
    await browser.close();
    await client.close();
    await server.stop();
    rmSync(journalDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
  const cell = latency(ready);
  const click = latency(clicks);
  return {
    name: `/changes with ${CHANGES} changes: drawn and interactive (headless Chromium, from navigation)`,
    oursHttp: cell,
    floors: [['first Undo click to its dry run', click]],
    ratio: `${rounds} loads; the list call answered at ${latency(lists).median.toFixed(0)} ms (median)`,
    bar: '< 1 s',
    met: cell.median < 1000,
  };
}
