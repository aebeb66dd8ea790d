// Bundles the server into one CommonJS file, dist/server.cjs, and the bin dist/main.js: a launcher
// that runs it through a V8 code cache (see below). What main.ts imports lazily (the HTTP stack: Koa,
// auth, Prometheus, the SDK's HTTP transport; ioredis) stays behind lazy wrappers a stdio server never
// calls. Loading ~300 small modules costs more start-up time than anything the server does, and
// compiling code a stdio server never runs costs most of the rest. tsc still emits dist/ (scripts import
// its modules) and
// typechecks; esbuild only transpiles, so every injected parameter must say @inject(TOKEN) explicitly
// (no emitted decorator metadata is relied on).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { discoveredTools } from './discovered-tools.mjs';

// zod re-exports ~50 locales (a third of its code) as `z.locales`; the server only ever uses English,
// which zod installs itself from locales/en.js. Every locale but English becomes an empty module.
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: 'zod-locales', namespace: 'english-only-zod' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

// The SDK's runtime shims module hands every Server a JSON Schema validator built on Ajv (ajv,
// ajv-formats, fast-uri: ~140 kB to parse at every start), only to validate elicitation answers and
// output schemas this server checks itself. Its import gets a stand-in that loads the SDK's own Ajv
// validator from node_modules on first use, and hands back the global `process` (see below).
const lazyAjvProvider = {
  name: 'lazy-ajv-provider',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) => ({ path: args.path, namespace: 'lazy-ajv-provider' }));
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/validators\/ajv$/, namespace: 'lazy-ajv-provider' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-ajv-provider' }, () => ({
      contents: [
        'export const process = globalThis.process;',
        'let provider;',
        'export class DefaultJsonSchemaValidator {',
        '  getValidator(schema) {',
        "    provider ??= new (require('@modelcontextprotocol/server/validators/ajv').AjvJsonSchemaValidator)();",
        '    return provider.getValidator(schema);',
        '  }',
        '}',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

// `import process from 'node:process'` (the SDK's stdio transport) makes Node build the built-in's ESM
// facade, which reads every property of `process`, allowedNodeEnvironmentFlags too: ~15 ms at each
// start. The global is the same object.
const globalProcess = {
  name: 'global-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, (args) =>
      args.kind === 'import-statement' ? { path: 'process', namespace: 'global-process' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'global-process' }, () => ({ contents: 'export default globalThis.process;', loader: 'js' }));
  },
};

// Modules a start-up may not need are required where they are first used, through createRequire
// (Node's loader under tsc and Jest): winston with the first log line written, yaml with the first config
// file. Here each such call becomes a plain require(), which esbuild bundles as a wrapper evaluated on
// its first call: the package stays in the bundle, and its evaluation waits until it is needed.
const LAZY_REQUIRES = [
  { file: /\/src\/adapters\/outbound\/winston-logger\.ts$/, call: "requireWinston('winston')", bundled: "require('winston')" },
  { file: /\/src\/config\/config-formats\.ts$/, call: "requireYaml('yaml')", bundled: "require('yaml')" },
];
const lazyRequires = {
  name: 'lazy-requires',
  setup(build) {
    for (const { file, call, bundled } of LAZY_REQUIRES) {
      build.onLoad({ filter: file }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(call)) throw new Error(`lazy-requires: ${args.path} no longer calls ${call}`);
        return { contents: source.replace(call, bundled), loader: 'ts' };
      });
    }
  },
};

// One CommonJS bundle, dist/server.cjs, run by the launcher (src/launcher.ts, the bin dist/main.js)
// through a V8 code cache: Node 20 caches no compiled ES modules, and compiling the bundle was a third of
// a stdio start's CPU time (issue 31.1). What a start may not need stays in the bundle behind esbuild's
// lazy wrappers (the HTTP stack and ioredis, imported with import(); winston and yaml, required late):
// parsed, but neither compiled nor evaluated until used. Earlier builds' chunks and caches go.
for (const stale of ['dist/chunks', 'dist/code-cache']) rmSync(stale, { recursive: true, force: true });

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/server.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  // re2 is a native addon: it loads its .node binary relative to its own package.
  external: ['re2'],
  // The launcher hands the bundle its own file URL (CommonJS has no import.meta).
  define: { 'import.meta.url': '__importMetaUrl' },
  // Smaller source is faster to parse at every start; keepNames keeps class names in logs and errors.
  minify: true,
  keepNames: true,
  plugins: [englishOnlyZod, lazyAjvProvider, globalProcess, lazyRequires, discoveredTools],
  logLevel: 'warning',
});
// The launcher wraps the bundle in a function, where a #! line is a syntax error: it becomes an empty
// line, so that the source map's lines still match.
const server = readFileSync('dist/server.cjs', 'utf8').replace(/^#!.*/, '');
writeFileSync('dist/server.cjs', server);

await build({
  entryPoints: ['src/launcher.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  define: { SERVER_BUNDLE_SHA256: JSON.stringify(createHash('sha256').update(server).digest('hex')) },
  logLevel: 'warning',
});

// The /changes page is one HTML file read at start-up: beside tsc's review module, and in dist/review/
// for the bundle (its chunks look in ../review/, dist/main.js in ./review/).
// The MCP App is that page with app-bridge.html (its data source through the host) put in front of its script.
for (const dir of ['dist/review', 'dist/adapters/inbound/review']) {
  mkdirSync(dir, { recursive: true });
  for (const file of ['changes-page.html', 'app-bridge.html']) copyFileSync(`src/adapters/inbound/review/${file}`, `${dir}/${file}`);
}
