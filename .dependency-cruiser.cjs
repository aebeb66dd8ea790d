/**
 * The layer rules of docs/architecture.md, checked by `npm test` (test/architecture.test.ts).
 * Imports run one way: main -> composition -> adapters -> config -> domain.
 * Model: Sairyss/domain-driven-hexagon's .dependency-cruiser.js.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domain imports only the domain and the pure packages it uses (diff, ignore): no Node built-in, framework or adapter.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '(^|/)node_modules/(diff|ignore)/'] },
    },
    {
      name: 'adapters-not-to-composition-or-main',
      comment: 'An adapter never climbs to the composition root or main: a DI token lives beside the port or module it names.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: ['^src/composition/', '^src/main\\.ts$'] },
    },
    {
      name: 'inbound-not-to-outbound',
      comment: 'Inbound and outbound adapters never import each other: a contract both need is a port.',
      severity: 'error',
      from: { path: '^src/adapters/inbound/' },
      to: { path: '^src/adapters/outbound/' },
    },
    {
      name: 'outbound-not-to-inbound',
      comment: 'Inbound and outbound adapters never import each other: a contract both need is a port.',
      severity: 'error',
      from: { path: '^src/adapters/outbound/' },
      to: { path: '^src/adapters/inbound/' },
    },
    {
      name: 'config-not-to-cli',
      comment: 'Configuration does not parse the command line: the CLI hands config its options.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycles anywhere (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a token file importing an adapter's type still ties the layers.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
