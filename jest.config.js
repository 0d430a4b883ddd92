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
};
