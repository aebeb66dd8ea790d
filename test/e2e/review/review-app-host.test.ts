import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { launchChromium } from '../../support/browser.js';
import { modernCall, modernHttpClient } from '../../support/modern-calls.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// Issue 30 §4, "the app inside a host": the review app's UI resource in a sandboxed iframe of a
// minimal host page (test/fixtures/app-host.html), in Debian's Chromium, bridged to the real server
// with the v2 client: the page relays the app's tools/call through it.
const APP_URI = 'ui://mcp-filesystem/review';
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ALICE = 'alice-app-host-token-0123';
const BOB = 'bob-app-host-token-0123';

interface ModelContextUpdate {
  content: { type: string; text: string }[];
  structuredContent: { undone: { id: string; op: string; root: string; path: string }[]; forced: boolean };
}

describe('the review app inside a host (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: ModernClient;
  let bob: ModernClient;
  let page: Page;
  let app: FrameLocator;
  const requests: string[] = [];
  const write = async (client: ModernClient, path: string, content: string) => {
    const outcome = await modernCall(client, 'write_file', { root: 'workspace', path, content });
    if (outcome.isError) throw new Error(outcome.text);
  };
  const onDisk = (path: string) => readFile(join(server.rootPath('workspace'), path), 'utf8');
  const modelContext = () => page.evaluate(() => (globalThis as unknown as { modelContext: ModelContextUpdate[] }).modelContext);
  /**
   * A person's click (the mouse, at the button's middle). Playwright's own click cannot place an element
   * of a sandboxed srcdoc frame here ("Object not disposable" under Node 20), so the point is worked out
   * from the frame's box and the element's box inside it.
   */
  const click = async (target: Locator) => {
    const middle = await target.evaluate((node) => {
      node.scrollIntoView({ block: 'center' });
      const box = node.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    });
    // After the scroll, which may have moved the host page too.
    const frame = await page.locator('#app').boundingBox();
    await page.mouse.click(frame!.x + middle.x, frame!.y + middle.y);
  };
  const styleOf = (target: Locator) => target.evaluate((node) => {
    const { backgroundColor, color } = (globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string; color: string } }).getComputedStyle(node);
    return { backgroundColor, color };
  });
  const idOf = async (path: string) => ((await modernCall(alice, 'list_changes', { root: 'workspace', path, limit: 1 })).structured as { changes: { id: string }[] }).changes[0].id;

  beforeAll(async () => {
    server = await startTestServer({
      auth: { mode: 'tokens', tokens: [{ name: 'alice', sha256: sha256Hex(ALICE), readOnly: false }, { name: 'bob', sha256: sha256Hex(BOB), readOnly: false }] },
    });
    alice = await modernHttpClient(server.url, ALICE);
    bob = await modernHttpClient(server.url, BOB);
    await write(alice, 'notes.txt', 'first\n');
    await write(alice, 'notes.txt', 'first\nsecond\n');
    await write(bob, 'bobs-secret.txt', 'bob only\n');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 640, height: 1000 } });
    page.setDefaultTimeout(8000);
    page.on('request', (request) => requests.push(request.url()));
    await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => alice.callTool(params));
    const read = await alice.readResource({ uri: APP_URI });
    const html = (read.contents[0] as { text: string }).text;
    await page.setContent(await readFile(join(process.cwd(), 'test', 'fixtures', 'app-host.html'), 'utf8'));
    await page.evaluate(([appHtml, args]) => (globalThis as unknown as { renderApp(html: string, args: object): void }).renderApp(appHtml, args), [html, { root: 'workspace' }] as const);
    app = page.frameLocator('#app');
    await app.getByRole('heading', { name: 'workspace/notes.txt' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await alice?.close();
    await bob?.close();
    await server?.stop();
  });

  it("opens on the tool call's filters, themed by the host, 400 px wide, with the caller's changes only and no network", async () => {
    await expect(app.getByLabel('Root').inputValue()).resolves.toBe('workspace');
    const body = app.locator('body');
    await expect(styleOf(body)).resolves.toMatchObject({ backgroundColor: 'rgb(1, 2, 3)' });
    // The host's theme (dark) picks the page's own dark colours where the host sets no variable, whatever the browser prefers.
    await expect(styleOf(app.locator('.meta').first())).resolves.toMatchObject({ color: 'rgb(169, 175, 184)' });
    await expect(body.evaluate((node) => node.ownerDocument.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(400);
    await expect(app.getByRole('region', { name: 'workspace/notes.txt' }).getByRole('listitem').count()).resolves.toBe(2);
    await expect(body.textContent()).resolves.not.toContain('bobs-secret');
    const undoNames = await app.locator('button').evaluateAll((buttons) => buttons.filter((button) => /^Undo/.test(button.textContent ?? '')).map((button) => button.getAttribute('aria-label') ?? button.textContent ?? ''));
    expect(undoNames.length).toBeGreaterThan(0);
    expect(undoNames.filter((name) => !name.startsWith('Undo'))).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('axe-core finds no serious or critical violation in the app as the host shows it (dark, 400 px)', async () => {
    const frame = page.frames().find((candidate) => candidate.parentFrame() === page.mainFrame())!;
    // Inline, as the app's CSP allows only inline scripts.
    await frame.addScriptTag({ content: await readFile(AXE_SOURCE, 'utf8') });
    const violations = await frame.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
      return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
    });
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  });

  it('Undo shows the dry run, restores the file on disk through undo_changes, and tells the model what was taken back', async () => {
    const id = await idOf('notes.txt');
    await click(app.getByRole('button', { name: /^Undo modify of workspace\/notes\.txt/ }));
    const preview = app.getByRole('region', { name: /^Undo preview/ });
    await preview.getByText('will be restored').waitFor();
    expect(await onDisk('notes.txt')).toBe('first\nsecond\n');
    await click(app.getByRole('button', { name: 'Undo now' }));
    await app.getByRole('status').filter({ hasText: 'Restored 1 of 1' }).waitFor();
    expect(await onDisk('notes.txt')).toBe('first\n');
    const [update] = await modelContext();
    expect(update.structuredContent).toEqual({ undone: [{ id, op: 'modify', root: 'workspace', path: 'notes.txt' }], forced: false });
    expect(update.content[0].text).toContain(`modify of workspace/notes.txt (change ${id})`);
    expect(update.content[0].text).toContain('do not make these changes again unless the person asks');
  });

  it('a conflict shows what differs; forcing it undoes over the later edit and the model hears it was forced', async () => {
    await write(alice, 'clash.txt', 'from the agent\n');
    await writeFile(join(server.rootPath('workspace'), 'clash.txt'), 'edited by a person\n');
    // From the keyboard: Enter in a filter field lists afresh, though the sandbox submits no form.
    await app.getByLabel('Root').focus();
    await page.keyboard.press('Enter');
    await click(app.getByRole('button', { name: /^Undo create of workspace\/clash\.txt/ }));
    const preview = app.getByRole('region', { name: /^Undo preview/ });
    await preview.getByText(/clash\.txt \(create\): conflict$/).waitFor();
    await preview.getByText('-edited by a person').waitFor();
    await click(app.getByRole('button', { name: /^Undo anyway/ }));
    await app.getByRole('status').filter({ hasText: 'Restored 1 of 1' }).waitFor();
    await expect(onDisk('clash.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    const updates = await modelContext();
    expect(updates).toHaveLength(2);
    expect(updates[1].structuredContent).toMatchObject({ undone: [{ op: 'create', path: 'clash.txt' }], forced: true });
    expect(requests).toEqual([]);
  });
});
