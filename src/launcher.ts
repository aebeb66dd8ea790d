#!/usr/bin/env node
// The bin (dist/main.js in the build): runs the server bundle (dist/server.cjs) through a V8 code cache.
// Node 20 has no compile cache for modules, and compiling ~1.2 MB of bundle is a third of a start's CPU
// time (issue 31.1); V8 code cache data made after a run holds every function that run compiled, so the
// next start deserializes them instead of parsing and compiling again. A cache that is missing, stale or
// refused falls back silently to a plain compile, and is written again as the process exits.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/** The server bundle's sha256, set by scripts/build.mjs (a cache made for another build is never looked at). */
declare const SERVER_BUNDLE_SHA256: string;

const bundle = fileURLToPath(new URL('./server.cjs', import.meta.url));
const dist = dirname(bundle);

/**
 * Security: cached data is code V8 runs. It lives beside the bundle, in dist/code-cache/, and only when
 * that is ours and writable by no one else: whoever could write it could as well rewrite the bundle.
 * Anywhere else (a cache or state directory) it could sit inside a root, where a tool could forge it.
 */
function trusted(stats: Stats): boolean {
  const uid = process.getuid?.() ?? -1;
  return (stats.uid === uid || stats.uid === 0) && (stats.mode & 0o022) === 0;
}

/** The cache file for this bundle, this Node and these V8 flags (V8 checks them too; the key keeps one file per combination). */
function cachePath(): string | undefined {
  try {
    if (!trusted(lstatSync(dist)) || !trusted(lstatSync(bundle))) return undefined;
  } catch {
    return undefined;
  }
  const key = [SERVER_BUNDLE_SHA256, process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''].join('\n');
  return join(dist, 'code-cache', `server-${createHash('sha256').update(key).digest('hex').slice(0, 32)}.bin`);
}

function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() && trusted(stats) && trusted(lstatSync(dirname(file))) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function writeCache(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { mode: 0o700, recursive: true });
    if (!trusted(lstatSync(dirname(file)))) return;
    writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written costs the next start its compile time, nothing else; a part
    // written before a full disk stopped it goes, so it neither fills the folder nor blocks a later
    // run with the same pid (the temp file is created exclusively).
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do at exit.
    }
  }
}

const file = cachePath();
const cachedData = file === undefined ? undefined : readCache(file);
// The wrapper stays byte-for-byte the same between runs: V8 checks the source against the cached data.
const source = readFileSync(bundle, 'utf8');
const script = new Script(`(function (exports, require, module, __filename, __dirname, __importMetaUrl) {${source}\n})`, {
  filename: bundle,
  ...(cachedData === undefined ? {} : { cachedData }),
});
/**
 * A run that only prints (--help, --version) or fails compiles little. Its cache was kept, and every
 * start after it compiled the rest: 176 against 102 ms to the first answer (1.09x the reference server,
 * 0.61x with a serving run's cache). Such a run leaves none: the first run that ends well writes it.
 */
const printsOnly = process.argv.slice(2).some((arg) => arg === '--help' || arg === '--version');
if (file !== undefined && !printsOnly && (cachedData === undefined || script.cachedDataRejected === true)) {
  // At exit the cache holds what this run compiled, not only the top level.
  process.once('exit', (code) => {
    if (code === 0) writeCache(file, script.createCachedData());
  });
}
const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dist, pathToFileURL(bundle).href);
