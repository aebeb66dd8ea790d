#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suites (devDependencies conformance-2025 =
// @modelcontextprotocol/conformance@0.1.16, conformance-2026 = 0.2.0-alpha.12 with the 2026-07-28
// requirements) against our built server over Streamable HTTP on loopback. Nothing is fetched at run
// time. Prints one row per scenario and exits 1 when a result differs from scripts/conformance/expected.mjs.
// The suites cover HTTP only (their `server` command takes a URL); stdio is not exercised by them.
//
//   npm run conformance -- [--json FILE] [--keep]
// The suites want Node 22: set CONFORMANCE_NODE to a Node 22 binary (or run under Node 22). On Node 20
// the suites run with a loader hook standing in for fs.globSync, which only their tier-check command uses.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outOfScopeReason, SUITES } from './conformance/expected.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const PACKAGES = { '0.1.16': 'conformance-2025', '0.2.0-alpha.12': 'conformance-2026' };
const PASSING = new Set(['SUCCESS', 'INFO']);

function suiteNode() {
  const node = process.env.CONFORMANCE_NODE ?? process.execPath;
  const major = Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(major)) throw new Error(`CONFORMANCE_NODE=${node} does not run`);
  const hook = major >= 22 ? [] : ['--import', join(ROOT, 'scripts/conformance/node20-register.mjs')];
  return { node, major, hook };
}

/** Our server on a free loopback port, one root holding a file; resolves with its URL. */
async function startServer(work) {
  const root = join(work, 'root');
  mkdirSync(root);
  writeFileSync(join(root, 'hello.txt'), 'hello\n');
  const config = join(work, 'config.yaml');
  writeFileSync(config, `roots:\n  - name: work\n    path: ${JSON.stringify(root)}\n    allowed_tools: ["*"]\njournal:\n  enabled: false\n`);
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js'), '--config', config, '--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The server logs (JSON lines) on stderr; both pipes keep draining while it runs.
  let log = '';
  child.stdout.resume();
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      if (log.length < 65536) log += chunk;
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(log);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${log.slice(0, 500)}`)));
  });
  return { url, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))) };
}

/** One suite's run: scenario -> its checks ({ id, status }). */
async function runSuite(version, url, runtime, out) {
  const bin = join(dirname(require.resolve(`${PACKAGES[version]}/package.json`)), 'dist/index.js');
  const args = [...runtime.hook, bin, 'server', '--url', url, '-o', out, ...SUITES[version].args];
  // Asynchronous: the server's log pipe must keep draining while the suite runs.
  const run = await new Promise((resolve, reject) => {
    const child = spawn(runtime.node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => {
      output.stdout += chunk;
      // Under Node 20 the suite's process may linger after its summary; every result is on disk by then.
      if (/\nTotal: \d+ passed/.test(output.stdout)) setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
    child.stderr.on('data', (chunk) => (output.stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 5 * 60 * 1000);
    child.once('error', reject);
    child.once('close', () => (clearTimeout(timer), resolve(output)));
  });
  const scenarios = new Map();
  for (const dir of readdirSync(out).sort()) {
    const name = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8'));
    scenarios.set(name, checks.map((check) => ({ id: check.id, status: check.status, message: check.errorMessage })));
  }
  if (scenarios.size === 0) throw new Error(`conformance ${version} ran no scenario:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  return scenarios;
}

/** pass / partial / out (expected) or FAIL (not): a scenario's result against expected.mjs. */
function judge(suite, scenario, checks) {
  const passed = checks.filter((check) => PASSING.has(check.status)).length;
  const excused = suite.partial[scenario] ?? {};
  const failing = checks.filter((check) => !PASSING.has(check.status) && !(check.id in excused));
  const counts = `${passed}/${checks.length}`;
  if (suite.pass.includes(scenario) || scenario in suite.partial) {
    if (failing.length > 0) return { verdict: 'FAIL', counts, why: failing.map((check) => `${check.id}: ${check.message ?? check.status}`).join('; ') };
    const left = checks.filter((check) => check.id in excused && !PASSING.has(check.status));
    return left.length ? { verdict: 'partial', counts, why: left.map((check) => `${check.id}: ${excused[check.id]}`).join('; ') } : { verdict: 'pass', counts };
  }
  const reason = outOfScopeReason(suite, scenario);
  if (reason === undefined) return { verdict: 'FAIL', counts, why: 'a scenario expected.mjs does not know: decide whether it applies' };
  return { verdict: failing.length ? 'out' : 'out (passes)', counts, why: reason };
}

async function main() {
  const argv = process.argv.slice(2);
  const jsonFile = argv.includes('--json') ? argv[argv.indexOf('--json') + 1] : undefined;
  const runtime = suiteNode();
  const work = mkdtempSync(join(tmpdir(), 'mcpfs-conformance-'));
  const server = await startServer(work);
  const results = {};
  try {
    for (const version of Object.keys(SUITES)) {
      const scenarios = await runSuite(version, server.url, runtime, join(work, version));
      results[version] = Object.fromEntries([...scenarios].map(([name, checks]) => [name, judge(SUITES[version], name, checks)]));
    }
  } finally {
    await server.stop();
    if (!argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  }
  const names = [...new Set(Object.values(results).flatMap((scenarios) => Object.keys(scenarios)))].sort();
  const cell = (result) => (result ? `${result.verdict} ${result.counts}` : '-');
  console.log(`conformance suites on Node ${runtime.major}${runtime.hook.length ? ' (fs.globSync hook)' : ''}, server over HTTP`);
  console.log(`${'scenario'.padEnd(46)} ${Object.keys(SUITES).map((v) => v.padEnd(18)).join(' ')}`);
  for (const name of names) console.log(`${name.padEnd(46)} ${Object.keys(SUITES).map((v) => cell(results[v][name]).padEnd(18)).join(' ')}`);
  const notes = new Map();
  for (const [version, scenarios] of Object.entries(results)) for (const [name, result] of Object.entries(scenarios)) if (result.why) notes.set(`${name} (${version}) ${result.verdict}`, result.why);
  console.log('\nnotes:');
  for (const [key, why] of notes) console.log(`  ${key}: ${why}`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ node: runtime.major, results }, null, 2));
  const failed = Object.values(results).flatMap((scenarios) => Object.values(scenarios)).filter((result) => result.verdict === 'FAIL');
  console.log(failed.length ? `\n${failed.length} result(s) differ from scripts/conformance/expected.mjs` : '\nevery result as expected');
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
