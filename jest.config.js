/**
 * NestJS 12 ships ESM-only packages; jest on Node 20 cannot load them natively, so swc transforms
 * them to CommonJS together with our TypeScript (see DESIGN.md §2).
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/modules', '<rootDir>/projections', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|uint8array-extras|@tokenizer|load-esm|light-my-request|cookie|content-disposition)/)',
  ],
  // The slowest files first, also without jest's cache (a clean CI checkout): see the file.
  testSequencer: '<rootDir>/test/harness/slow-first-sequencer.js',
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  // How long jest waits, once every file has run, for a worker to exit on its own before it kills it
  // and warns "A worker process has failed to exit gracefully" (default 500 ms). A worker exits when
  // its event loop is empty, and Node then tears its whole heap down, which takes time in proportion:
  // on a busy 2-core machine a plain node process of 133 MB heap took 0.6 s from its 'exit' event to
  // being gone, of 379 MB 2 s (44 ms with process.exit()). Workers that had run the contract suites
  // were still running 0.35 s after their 'exit' event, with no handle, timer or request left open:
  // the warning was that teardown, not a leak. A worker a real leak keeps alive is still killed, and
  // the warning still printed, after this.
  workerGracefulExitTimeout: 5_000,
};
