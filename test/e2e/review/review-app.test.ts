import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { modernCall, modernHttpClient } from '../../support/modern-calls.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { modernStdioClient, stdioClient } from '../../support/stdio-client.js';

// Issue 30.1: review_changes and its MCP App, through the SDK clients over HTTP and stdio.
const APP_URI = 'ui://mcp-filesystem/review';
const ALICE = 'alice-review-app-token-0123';
const BOB = 'bob-review-app-token-0123';

type AnyClient = ModernClient | LegacyClient;

/** What a host needs from the server to render the app: the tool's link, the resource, the capability. */
async function appSurface(client: AnyClient) {
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === 'review_changes');
  const { resources } = await client.listResources();
  const read = await client.readResource({ uri: APP_URI });
  const [content] = read.contents as { uri: string; mimeType?: string; text?: string }[];
  return { meta: tool?._meta, annotations: tool?.annotations, listed: resources.find((resource) => resource.uri === APP_URI)?.mimeType, content };
}

function expectTheApp(surface: Awaited<ReturnType<typeof appSurface>>): void {
  expect(surface.meta).toEqual({ ui: { resourceUri: APP_URI } });
  expect(surface.annotations).toMatchObject({ readOnlyHint: true });
  expect(surface.listed).toBe(RESOURCE_MIME_TYPE);
  expect(surface.content).toMatchObject({ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' });
  const html = surface.content.text ?? '';
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toContain('window.changesSource = {');
  // One self-contained document: nothing it would load from anywhere.
  expect(html).not.toMatch(/<(?:link|img|iframe)\b|\bsrc=|https?:\/\//);
}

describe('review_changes over Streamable HTTP (2026-07-28 client)', () => {
  let server: TestServer;
  let alice: ModernClient;
  let bob: ModernClient;

  beforeAll(async () => {
    server = await startTestServer({
      auth: { mode: 'tokens', tokens: [{ name: 'alice', sha256: sha256Hex(ALICE), readOnly: false }, { name: 'bob', sha256: sha256Hex(BOB), readOnly: false }] },
    });
    alice = await modernHttpClient(server.url, ALICE);
    bob = await modernHttpClient(server.url, BOB);
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index}`).join('\n');
    for (const [client, path, content] of [[alice, 'notes.txt', 'first\n'], [alice, 'notes.txt', 'first\nsecond\n'], [alice, 'long.txt', `${lines}\n`], [bob, 'bobs-secret.txt', 'bob only\n']] as const) {
      const outcome = await modernCall(client, 'write_file', { root: 'workspace', path, content });
      if (outcome.isError) throw new Error(outcome.text);
    }
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await server?.stop();
  });

  it('links the ui:// app from review_changes, serves it as one HTML document, and says so in its capabilities', async () => {
    expectTheApp(await appSurface(alice));
    expect(alice.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({});
  });

  it("gives the caller's changes as text, by file and newest first with folded diffs, and never another principal's", async () => {
    const review = await modernCall(alice, 'review_changes', {});
    expect(review.isError).toBe(false);
    const lines = review.text.split('\n');
    expect(lines[0]).toBe('3 changes to 2 files, newest first; ids go to undo_changes:');
    expect(lines.filter((line) => !line.startsWith(' '))).toEqual([lines[0], 'workspace/long.txt', 'workspace/notes.txt']);
    expect(review.text).toMatch(/ modify by write_file at \S+, undoable\n {4}@@ -1,1 \+1,2 @@\n {5}first\n {4}\+second/);
    expect(review.text).toMatch(/ {4}\(\d+ more diff lines folded\)/);
    expect(review.text).not.toContain('bobs-secret');
    // The app's data: exactly list_changes' changes, with their diffs.
    const listed = await modernCall(alice, 'list_changes', { diff: true });
    expect(review.structured).toEqual(listed.structured);
    const bobs = await modernCall(bob, 'review_changes', {});
    expect(bobs.text.split('\n').filter((line) => !line.startsWith(' '))).toEqual(['1 change to 1 file, newest first; ids go to undo_changes:', 'workspace/bobs-secret.txt']);
    const filtered = await modernCall(alice, 'review_changes', { root: 'workspace', path: 'long.txt' });
    expect(filtered.text).not.toContain('notes.txt');
  });
});

describe('review_changes over stdio (both SDK generations)', () => {
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfs-review-app-'));
    await mkdir(join(dir, 'workspace'));
    config = ['log_level: error', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(join(dir, 'workspace'))}`, '    allowed_tools: ["*"]', `journal: { dir: ${JSON.stringify(join(dir, 'journal'))} }`, ''].join('\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists the app, reads it as HTML with its MIME type, and reviews the changes made', async () => {
    const modern = await modernStdioClient(dir, config);
    const legacy = await stdioClient(dir, config);
    try {
      expectTheApp(await appSurface(modern));
      expectTheApp(await appSurface(legacy));
      expect(legacy.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({});
      expect((await modernCall(modern, 'write_file', { root: 'workspace', path: 'a.txt', content: 'hello\n' })).isError).toBe(false);
      const review = await modernCall(modern, 'review_changes', {});
      expect(review.text).toMatch(/^1 change to 1 file, newest first; ids go to undo_changes:\nworkspace\/a\.txt\n {2}[0-9a-z]{17} create by write_file at \S+, undoable\n {4}@@ -0,0 \+1,1 @@\n {4}\+hello$/);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('serves the app alone as resources when only the changes toolset is on', async () => {
    const client = await stdioClient(dir, config.replace('log_level: error', 'log_level: error\ntoolsets: [changes]'));
    try {
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([APP_URI]);
      expectTheApp(await appSurface(client));
      await expect(client.readResource({ uri: 'mcpfs://workspace/a.txt' })).rejects.toMatchObject({ data: { uri: 'mcpfs://workspace/a.txt' } });
    } finally {
      await client.close();
    }
  });
});
