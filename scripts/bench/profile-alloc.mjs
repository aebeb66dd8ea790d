#!/usr/bin/env node
// What one tool call allocates in our server, by function: spawns dist/main.js over stdio with
// alloc-hook.mjs, warms the tool up, samples V8's heap allocations (freed objects included) over
// CALLS calls, and prints MB a call, by allocating function and by caller (inclusive). The zod copy of
// each checked result and the per-level joins of a result's message were found this way.
// Usage: npm run build && node scripts/bench/profile-alloc.mjs [tool=list_folder] ['{"json":"arguments"}'] [calls=10]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { frameName } from './bundle-frames.mjs';
import { ensureCorpus } from './corpus.mjs';
import { OUR_MAIN, call, writeConfig } from './servers.mjs';

const tool = process.argv[2] ?? 'list_folder';
const args = JSON.parse(process.argv[3] ?? '{"root":"bench","path":"dir-10k"}');
const calls = Number(process.argv[4] ?? 10);
const work = mkdtempSync(join(tmpdir(), 'mcpfs-profile-alloc-'));
const profileFile = join(work, 'allocations.heapprofile');
const hook = fileURLToPath(new URL('./alloc-hook.mjs', import.meta.url));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', hook, OUR_MAIN, '--stdio', '--config', writeConfig(work, ensureCorpus())],
  env: { ...getDefaultEnvironment(), MCPFS_ALLOC_PROFILE: profileFile },
  stderr: 'inherit',
});
const client = new Client({ name: 'mcpfs-profile-alloc', version: '1.0.0' });
await client.connect(transport);
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
for (let i = 0; i < 5; i += 1) await call(client, tool, args);
process.kill(transport.pid, 'SIGUSR2');
await settle();
for (let i = 0; i < calls; i += 1) await call(client, tool, args);
process.kill(transport.pid, 'SIGUSR2');
let profile;
for (let i = 0; i < 50 && profile === undefined; i += 1) {
  await settle();
  try {
    profile = JSON.parse(readFileSync(profileFile, 'utf8'));
  } catch {
    // not written yet
  }
}
await client.close();
if (profile === undefined) throw new Error('the server wrote no allocation profile');

const self = new Map();
const inclusive = new Map();
let total = 0;
const walk = (node, callers) => {
  const name = frameName(node.callFrame);
  total += node.selfSize;
  self.set(name, (self.get(name) ?? 0) + node.selfSize);
  // Each function once per stack, however often it recurs in it.
  const stack = new Set(callers).add(name);
  for (const caller of stack) inclusive.set(caller, (inclusive.get(caller) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, stack);
};
walk(profile.head, new Set());
const perCall = (bytes) => (bytes / calls / 1e6).toFixed(2).padStart(7);
const top = (map, count) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
console.log(`${tool}: ${perCall(total).trim()} MB allocated a call (sampled over ${calls} calls)`);
console.log('\nby allocating function (MB a call):');
for (const [name, bytes] of top(self, 20)) console.log(`${perCall(bytes)}  ${name}`);
console.log('\nby caller, inclusive (MB a call):');
for (const [name, bytes] of top(inclusive, 30)) console.log(`${perCall(bytes)}  ${name}`);
