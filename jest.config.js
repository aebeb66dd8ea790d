/** ts-jest in ESM mode: the project is "type": "module" because inversify 8 is ESM-only. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The packed-tarball test installs from the registry and compiles re2: minutes of CPU. It runs
  // apart (`npm run test:package`, and in .ci/run) so that `npm test` stays quick to run often.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/package/'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  testTimeout: 30000,
  // A worker that has grown past this between two test files is replaced: ESM test modules are never freed,
  // and one worker reached 4.3 GB in a full run, where its garbage collection slowed timed cases 20-fold.
  workerIdleMemoryLimit: '1536MB',
};
