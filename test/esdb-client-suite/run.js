#!/usr/bin/env node
/**
 * `npm run test:esdb-client-suite`: the official `@eventstore/db-client` v6.2.1 test suite, unchanged,
 * against the emulator. ESDB_CLIENT_REPO names a checkout of EventStore-Client-NodeJS at tag v6.2.1
 * (ESDB-NOTES.md says how to make one). Prints what runs and what is skipped and why, then runs jest;
 * extra arguments go to jest.
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { clientSuite } = require('./checkout');
const { RUN, SKIPPED_FILES, SKIPPED_TESTS } = require('./selection');

const { src } = clientSuite();
console.log(`Client suite: ${src}\n\nRuns ${RUN.length} files:\n${RUN.map((file) => `  ${file}`).join('\n')}\n`);
console.log(
  `Skips these files:\n${Object.entries(SKIPPED_FILES)
    .map(([file, why]) => `  ${file} — ${why}`)
    .join('\n')}\n`,
);
console.log(
  `Skips these tests:\n${Object.entries(SKIPPED_TESTS)
    .map(([name, why]) => `  ${name} — ${why}`)
    .join('\n')}\n`,
);

const jest = require.resolve('jest/bin/jest');
const result = spawnSync(process.execPath, [jest, '-c', join(__dirname, 'jest.config.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
