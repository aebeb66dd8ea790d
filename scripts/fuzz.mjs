// `npm run fuzz -- --runs N [--concurrent] [--seed S --path P] [--ops M]`: bundles the fuzzer
// (test/fuzz/cli.ts, TypeScript) with esbuild into a temp directory of the project (so that the packages,
// left external, resolve from node_modules), runs it, and removes it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { discoveredTools } from './discovered-tools.mjs';

const out = mkdtempSync('.fuzz-build-');
try {
  await build({
    entryPoints: ['test/fuzz/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: join(out, 'fuzz.mjs'),
    logLevel: 'warning',
    // The tool registry finds its tools with readdir at run time, which a bundle cannot follow.
    plugins: [discoveredTools],
  });
  const run = spawnSync(process.execPath, [join(out, 'fuzz.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
