/**
 * The decisions' unit specs alone, for StrykerJS (`npm run test:mutation`): pure code, so no
 * database is started (no global setup) and a mutant's run takes milliseconds.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  transformIgnorePatterns: base.transformIgnorePatterns,
  roots: ['<rootDir>/modules'],
  testMatch: ['**/*.decision.unit.spec.ts'],
};
