/**
 * The layer rules of docs/architecture.md, checked by `npm test` (test/architecture.test.ts).
 * Imports run one way: main -> composition -> adapters -> config -> domain.
 * Model: Sairyss/domain-driven-hexagon's .dependency-cruiser.js.
 */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });
const SEPARATE_SIDES = 'Inbound and outbound adapters never import each other: a contract both need is a port (adapters/shared).';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domain imports only the domain and the pure packages it uses (diff, ignore): no Node built-in, framework or adapter.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '(^|/)node_modules/(diff|ignore)/'] },
    },
    forbid(
      'adapters-not-to-composition-or-main',
      'An adapter never climbs to the composition root or main: a DI token lives beside the port or module it names.',
      '^src/adapters/',
      ['^src/composition/', '^src/main\\.ts$'],
    ),
    forbid('inbound-not-to-outbound', SEPARATE_SIDES, '^src/adapters/inbound/', '^src/adapters/outbound/'),
    forbid('outbound-not-to-inbound', SEPARATE_SIDES, '^src/adapters/outbound/', '^src/adapters/inbound/'),
    forbid('config-not-to-cli', 'Configuration does not parse the command line: the CLI hands loadConfig what it parsed.', '^src/config/', '^src/cli/'),
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
