// Bundles the server into one ESM file, dist/main.js (the bin). Loading ~300 small modules costs more
// start-up time than anything the server does; one file loads in a few milliseconds. tsc still emits
// dist/ (scripts import its modules) and typechecks; esbuild only transpiles, so every injected
// parameter must say @inject(TOKEN) explicitly (no emitted decorator metadata is relied on).
import { build } from 'esbuild';

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

// Koa and its router (with mime-db, type-is, accepts ...) cost ~40 ms to evaluate and only the HTTP
// transport uses them. Imports of them from src/ get a stand-in whose constructor evaluates the
// bundled package on first use, so a stdio server never pays for it. Only `new Koa()` and
// `new Router()` are used at run time (everything else is a type).
const lazyHttpStack = {
  name: 'lazy-http-stack',
  setup(build) {
    build.onResolve({ filter: /^(koa|@koa\/router)$/ }, (args) =>
      args.importer.includes('/src/') ? { path: args.path, namespace: 'lazy-http-stack' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-http-stack' }, (args) => ({
      contents: `let loaded;\nexport default function Lazy(...args) {\n  loaded ??= require(${JSON.stringify(args.path)});\n  return new loaded(...args);\n}\n`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // re2 is a native addon: it loads its .node binary relative to its own package.
  external: ['re2'],
  // Bundled CommonJS dependencies (winston, convict, koa) call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Smaller source is faster to parse at every start; keepNames keeps class names in logs and errors.
  minify: true,
  keepNames: true,
  plugins: [englishOnlyZod, lazyHttpStack],
  logLevel: 'warning',
});
