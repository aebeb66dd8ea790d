import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { globText } from '../../src/adapters/inbound/mcp/tools/glob-text.js';
import { grepText } from '../../src/adapters/inbound/mcp/tools/grep-text.js';
import { formatSize } from '../../src/domain/tools/file-text.js';
import { TOOLS } from './tools.js';
import type { ToolCallOutcome } from './mcp.js';

/** File tree for seeding a root: relative path -> content. A path ending in '/' is an (empty) directory. */
export type Tree = Record<string, string | Uint8Array>;

/** Writes `tree` below `hostDir` with node:fs, creating parents (the server is not involved). */
export async function writeTree(hostDir: string, tree: Tree): Promise<void> {
  for (const [relative, content] of Object.entries(tree)) {
    const target = join(hostDir, relative);
    if (relative.endsWith('/')) {
      await fs.mkdir(target, { recursive: true });
      continue;
    }
    await fs.mkdir(dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
}

/**
 * Every entry below `hostDir` (links not followed) -> 'dir', 'link:<text>' or 'file:<sha256>'.
 * Comparing two snapshots proves a failed call changed nothing.
 */
export async function snapshotTree(hostDir: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  async function walk(directory: string, prefix: string): Promise<void> {
    for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
      const host = join(directory, entry.name);
      const relative = prefix + entry.name;
      if (entry.isSymbolicLink()) snapshot[relative] = `link:${await fs.readlink(host)}`;
      else if (entry.isDirectory()) {
        snapshot[relative] = 'dir';
        await walk(host, `${relative}/`);
      } else snapshot[relative] = `file:${sha256(await fs.readFile(host))}`;
    }
  }
  await walk(hostDir, '');
  return snapshot;
}

export async function pathExists(hostPath: string): Promise<boolean> {
  try {
    await fs.lstat(hostPath);
    return true;
  } catch {
    return false;
  }
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The structured result of a successful call. Also checks the contract that the text
 * block carries the same JSON as structuredContent.
 */
export function ok(outcome: ToolCallOutcome): any {
  if (outcome.isError) throw new Error(`expected success, got error: ${outcome.text}`);
  expect(outcome.structured).toBeDefined();
  expect(outcome.text).toBe(expectedText(outcome.structured));
  return outcome.structured;
}

/**
 * The text block the model reads: read_file's raw window (a note plus base64 for binary),
 * grep's ripgrep-style lines, glob's paths, every other tool's result as compact JSON.
 */
function expectedText(structured: any): string {
  // grep's text block is ripgrep's format (issue 19), made from the same structured result.
  if (Array.isArray(structured.matches) && typeof structured.files_searched === 'number') return grepText(structured);
  // glob's is one path a line, as rg --files prints them (issue 31.2).
  if (Array.isArray(structured.matches) && typeof structured.total_matches === 'number') return globText(structured);
  const isReadFile = typeof structured.encoding === 'string' && typeof structured.content === 'string';
  if (!isReadFile) return JSON.stringify(structured);
  if (structured.encoding === 'base64') return `Binary content of ${structured.path} (${formatSize(structured.size)} file), base64:\n${structured.content}`;
  return structured.content === '' ? `(no content: ${structured.path} is ${formatSize(structured.size)}; nothing at this offset)` : structured.content;
}

/** A successful call's text block and structuredContent, for tools whose text is not the result's JSON (the editor tools). */
export function success(outcome: ToolCallOutcome): { text: string; structured: any } {
  if (outcome.isError) throw new Error(`expected success, got: ${outcome.text}`);
  return { text: outcome.text, structured: outcome.structured };
}

/** Asserts an isError result whose text is `CODE: ...` and contains every fragment. */
export function expectError(outcome: ToolCallOutcome, code: string, ...fragments: (string | RegExp)[]): void {
  expect({ isError: outcome.isError, text: outcome.text }).toEqual({ isError: true, text: expect.any(String) });
  expect(outcome.text).toMatch(new RegExp(`^${code}: `));
  for (const fragment of fragments) {
    if (typeof fragment === 'string') expect(outcome.text).toContain(fragment);
    else expect(outcome.text).toMatch(fragment);
  }
}

/** The bytes read_file returned, whichever encoding it chose. */
export function decodedContent(result: { content: string; encoding: string }): Buffer {
  return Buffer.from(result.content, result.encoding === 'base64' ? 'base64' : 'utf8');
}

/** A root configured with '*': reported either as ['*'] or expanded, it must grant every root-scoped tool. */
export function expectAllToolsAllowed(allowedTools: readonly string[]): void {
  if (allowedTools.length === 1 && allowedTools[0] === '*') return;
  for (const tool of TOOLS.rootScoped) expect(allowedTools).toContain(tool);
  for (const tool of allowedTools) expect(TOOLS.allowlistable.has(tool)).toBe(true);
}
