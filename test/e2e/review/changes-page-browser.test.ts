import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../support/browser.js';
import { callTool } from '../../support/mcp.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// Issue 30 §4: the /changes page in a real browser (Debian's Chromium through playwright-core), on the real server.

const ALICE = 'alice-page-token-0123456789';
const BOB = 'bob-page-token-0123456789';
const CAROL = 'carol-page-token-0123456789';
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe('the /changes page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Client;
  let bob: Client;
  const write = async (client: Client, path: string, content: string) => {
    const outcome = await callTool(client, 'write_file', { root: 'workspace', path, content });
    if (outcome.isError) throw new Error(outcome.text);
  };
  const onDisk = (path: string) => readFile(join(server.rootPath('workspace'), path), 'utf8');
  /** The page with a token (Alice's unless told) typed in when it asks, as a person would. */
  async function openPage(options: { bypassCSP?: boolean; token?: string } = {}): Promise<Page> {
    const page = await (await browser.newContext({ bypassCSP: options.bypassCSP })).newPage();
    // A step that never comes fails by name, well before the test's own timeout.
    page.setDefaultTimeout(8000);
    await page.goto(`${server.baseUrl}/changes`);
    await page.getByLabel('Access token', { exact: true }).fill(options.token ?? ALICE);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('status').filter({ hasText: 'shown' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    server = await startTestServer({
      auth: { mode: 'tokens', tokens: [{ name: 'alice', sha256: sha256Hex(ALICE), readOnly: false }, { name: 'bob', sha256: sha256Hex(BOB), readOnly: false }, { name: 'carol', sha256: sha256Hex(CAROL), readOnly: false }] },
    });
    browser = await launchChromium();
    alice = await server.connect({ bearer: ALICE });
    bob = await server.connect({ bearer: BOB });
    await write(alice, 'notes.txt', 'first line\n');
    await write(alice, 'notes.txt', 'first line\nsecond line\n');
    await write(bob, 'bobs-secret.txt', 'bob only\n');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('without a token the page asks for one (the API answered 401); the token stays in sessionStorage, not the URL or a cookie', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused = page.waitForResponse((response) => response.url().includes('/changes/api/changes'));
    await page.goto(`${server.baseUrl}/changes`);
    expect((await refused).status()).toBe(401);
    await expect(page.getByLabel('Access token', { exact: true }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Access token', { exact: true }).fill(ALICE);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('heading', { name: 'workspace/notes.txt' }).waitFor();
    expect(await page.evaluate(() => Object.values((globalThis as any).sessionStorage))).toEqual([ALICE]);
    expect(page.url()).not.toContain(ALICE);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it("shows the paths and diffs of the principal's changes, and never another principal's", async () => {
    const page = await openPage();
    const file = page.getByRole('region', { name: 'workspace/notes.txt' });
    await expect(file.getByRole('listitem').count()).resolves.toBe(2);
    await file.getByText('Diff').first().click();
    await page.getByLabel('Diff of workspace/notes.txt').getByText('+second line').waitFor();
    expect(await page.content()).not.toContain('bobs-secret');
    await page.context().close();
  });

  it('"Undo" shows what it would do, then restores the file on disk; a new change arrives live', async () => {
    await write(alice, 'draft.txt', 'kept\n');
    await write(alice, 'draft.txt', 'overwritten\n');
    const page = await openPage();
    const file = page.getByRole('region', { name: 'workspace/draft.txt' });
    await file.getByRole('button', { name: /^Undo modify of workspace\/draft\.txt/ }).click();
    const preview = page.getByRole('region', { name: /^Undo preview/ });
    await preview.getByText('will be restored').waitFor();
    await preview.getByText('+kept').waitFor();
    expect(await onDisk('draft.txt')).toBe('overwritten\n');
    await page.getByRole('button', { name: 'Undo now' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored 1 of 1' }).waitFor();
    expect(await onDisk('draft.txt')).toBe('kept\n');
    await write(alice, 'live.txt', 'arrived\n');
    await page.getByRole('heading', { name: 'workspace/live.txt' }).waitFor();
    await page.context().close();
  });

  it('a conflict shows what differs and can be forced', async () => {
    await write(alice, 'clash.txt', 'from the agent\n');
    await writeFile(join(server.rootPath('workspace'), 'clash.txt'), 'edited by a person\n');
    const page = await openPage();
    await page.getByRole('region', { name: 'workspace/clash.txt' }).getByRole('button', { name: /^Undo create of workspace\/clash\.txt/ }).click();
    const preview = page.getByRole('region', { name: /^Undo preview/ });
    await preview.getByText(/clash\.txt \(create\): conflict$/).waitFor();
    await preview.getByText(/its (size|content)/).waitFor();
    await preview.getByText('-edited by a person').waitFor();
    expect(await page.getByRole('button', { name: 'Undo now' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: /^Undo anyway/ }).click();
    await page.getByRole('status').filter({ hasText: 'Restored 1 of 1' }).waitFor();
    await expect(onDisk('clash.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    await page.context().close();
  });

  it('folds a long diff; undoes every change after one, and a file\'s changes, from their buttons', async () => {
    const carol = await server.connect({ bearer: CAROL });
    const lines = (tag: string) => Array.from({ length: 60 }, (_, index) => `${tag} line ${index}`).join('\n') + '\n';
    await write(carol, 'long.txt', lines('old'));
    await write(carol, 'long.txt', lines('new'));
    for (const version of ['one\n', 'two\n', 'three\n']) await write(carol, 'multi.txt', version);
    for (const name of ['s1.txt', 's2.txt', 's3.txt']) await write(carol, name, `${name}\n`);
    const page = await openPage({ token: CAROL });

    const long = page.getByRole('region', { name: 'workspace/long.txt' });
    await long.getByText('Diff').first().click();
    const diff = page.getByLabel('Diff of workspace/long.txt');
    await diff.getByText('-old line 0', { exact: true }).waitFor();
    expect(await diff.locator('span').count()).toBe(40);
    expect(await diff.getByText('+new line 59', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: /^Show all \d+ lines$/ }).click();
    await diff.getByText('+new line 59', { exact: true }).waitFor();
    expect(await diff.locator('span').count()).toBeGreaterThan(120);

    const preview = page.getByRole('region', { name: /^Undo preview/ });
    await page.getByRole('region', { name: 'workspace/s1.txt' }).getByRole('button', { name: /^Undo later changes/ }).click();
    await page.getByRole('status').filter({ hasText: '2 changes selected' }).waitFor();
    await expect(preview.getByText(/s[23]\.txt \(create\): will be restored/).count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Undo now' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored 2 of 2' }).waitFor();
    expect(await onDisk('s1.txt')).toBe('s1.txt\n');
    await expect(onDisk('s3.txt')).rejects.toMatchObject({ code: 'ENOENT' });

    await page.getByRole('button', { name: 'Undo all 3 changes to workspace/multi.txt' }).click();
    await page.getByRole('status').filter({ hasText: '3 changes selected' }).waitFor();
    await expect(preview.getByText(/multi\.txt \((create|modify)\): will be restored/).count()).resolves.toBe(3);
    await page.getByRole('button', { name: 'Undo now' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored 3 of 3' }).waitFor();
    await expect(onDisk('multi.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    await page.context().close();
  });

  it('works from the keyboard: Enter on an Undo button opens its preview, Escape closes it and gives the focus back', async () => {
    await write(alice, 'keys.txt', 'typed\n');
    const page = await openPage();
    const undo = page.getByRole('button', { name: /^Undo create of workspace\/keys\.txt/ });
    await undo.focus();
    await page.keyboard.press('Enter');
    const preview = page.getByRole('region', { name: /^Undo preview/ });
    await preview.getByText('will be restored').waitFor();
    expect(await preview.evaluate((node) => node === (globalThis as any).document.activeElement)).toBe(true);
    // Tab goes through the preview: its diff (scrollable, so focusable), then the button that does the undo.
    const focused = async () => page.evaluate(() => (globalThis as any).document.activeElement.getAttribute('aria-label') ?? (globalThis as any).document.activeElement.textContent);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('What the undo changes at workspace/keys.txt');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Undo now');
    await page.keyboard.press('Escape');
    await page.getByRole('status').filter({ hasText: 'Nothing was undone.' }).waitFor();
    expect(await preview.isVisible()).toBe(false);
    expect(await undo.evaluate((node) => node === (globalThis as any).document.activeElement)).toBe(true);
    expect(await onDisk('keys.txt')).toBe('typed\n');
    await page.context().close();
  });

  it('axe-core finds no serious or critical violation with 50 changes, light and dark; every undo control is a button named "Undo…"', async () => {
    for (let index = 0; index < 50; index += 1) await write(alice, `many/file-${index % 20}.txt`, `version ${index}\n`);
    for (const colorScheme of ['light', 'dark'] as const) {
      // axe is injected as a script the page's CSP would refuse; the page's own CSP is tested above.
      const page = await openPage({ bypassCSP: true });
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 400, height: 900 });
      await page.getByText('Diff').first().click();
      await page.addScriptTag({ path: AXE_SOURCE });
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
        return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
      });
      expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
      const undoNames = await page.locator('button').evaluateAll((buttons) => buttons.filter((button) => /^Undo/.test(button.textContent ?? '')).map((button) => button.getAttribute('aria-label') ?? button.textContent ?? ''));
      expect(undoNames.length).toBeGreaterThan(50);
      expect(undoNames.filter((name) => !name.startsWith('Undo'))).toEqual([]);
      // Fine at 400 px: nothing wider than the window.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
      await page.context().close();
    }
  });
});
