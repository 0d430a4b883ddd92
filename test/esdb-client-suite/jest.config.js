/**
 * Runs the official `@eventstore/db-client` v6.2.1 test suite, unchanged, against the emulator
 * (`npm run test:esdb-client-suite`, ESDB-NOTES.md). rootDir is this folder so the suite's
 * `@jest-environment ./src/utils/enableVersionCheck.ts` docblocks find the harness's environment;
 * `@test-utils` is the harness's (test-utils.js), the client is the one package.json pins.
 * @type {import('jest').Config}
 */
const { join } = require('node:path');
const base = require('../../jest.config');
const { clientSuite } = require('./checkout');
const { RUN, testNamePattern } = require('./selection');

const { src } = clientSuite();
const modules = join(__dirname, '..', '..', 'node_modules');

module.exports = {
  rootDir: __dirname,
  roots: [src],
  testMatch: RUN.map((file) => join(src, file)),
  testNamePattern: testNamePattern(),
  transform: base.transform,
  testEnvironment: 'node',
  moduleNameMapper: { '^@test-utils$': join(__dirname, 'test-utils.js') },
  // The checkout has no node_modules of its own: its imports resolve in this project's.
  modulePaths: [modules],
  setupFilesAfterEnv: [join(__dirname, 'jest27-matchers.js')],
  // jest 27's snapshot format, which the suite's stored snapshots were written in; never write new ones.
  snapshotFormat: { escapeString: true, printBasicPrototype: true },
  ci: true,
  testTimeout: 60_000,
  maxWorkers: 2,
};
