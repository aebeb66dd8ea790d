#!/usr/bin/env node
// Makes docs/images/changes-light.png and changes-dark.png: the /changes page after a few tool calls,
// in Debian's Chromium through playwright-core (`npm run build` first). The README shows them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { call, freePort, spawnHttp, OUR_MAIN } from './bench/servers.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'mcpfs-shots-'));
const workspace = join(scratch, 'workspace');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(join(workspace, 'notes'), { recursive: true });
writeFileSync(join(workspace, 'README.md'), '# Greeter\n\nSays hello.\n\n## Use\n\n    node src/greet.js\n');
writeFileSync(join(workspace, 'notes', 'todo.txt'), 'ship it\n');
const config = join(scratch, 'config.yaml');
writeFileSync(config, `log_level: error\nroots:\n  - name: workspace\n    path: ${JSON.stringify(workspace)}\n    allowed_tools: ["*"]\n`);
const port = await freePort();
const server = await spawnHttp([OUR_MAIN, '--config', config, '--port', String(port)], port, { MCP_FS_JOURNAL_DIR: join(scratch, 'journal') });
const client = await server.connect();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await call(client, 'write_file', { root: 'workspace', path: 'src/greet.js', content: "export function greet(name) {\n  return 'Hello ' + name;\n}\n" });
  await call(client, 'write_file', { root: 'workspace', path: 'src/greet.js', content: "export function greet(name = 'world') {\n  return `Hello, ${name}!`;\n}\n" });
  await call(client, 'write_file', { root: 'workspace', path: 'README.md', content: '# Greeter\n\nSays hello, to anyone.\n\n## Use\n\n    node src/greet.js\n\n## Test\n\n    npm test\n' });
  await call(client, 'remove_file', { root: 'workspace', path: 'notes/todo.txt' });
  for (const colorScheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 900, height: 760 }, colorScheme });
    await page.goto(`http://127.0.0.1:${port}/changes`);
    await page.getByRole('heading', { name: 'workspace/README.md' }).waitFor();
    await page.getByRole('region', { name: 'workspace/src/greet.js' }).getByText('Diff').first().click();
    await page.getByLabel('Diff of workspace/src/greet.js').waitFor();
    await page.screenshot({ path: join('docs', 'images', `changes-${colorScheme}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
  await client.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
