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
  plugins: [englishOnlyZod],
  logLevel: 'warning',
});
