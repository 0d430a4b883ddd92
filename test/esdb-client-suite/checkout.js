/**
 * Where the client's test suite is: `ESDB_CLIENT_REPO` names a checkout of EventStore-Client-NodeJS at
 * tag v6.2.1 (the version package.json pins). The project ships none of its files, only this harness.
 */
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');

function clientSuite() {
  const repo = process.env.ESDB_CLIENT_REPO;
  if (!repo) {
    throw new Error('Set ESDB_CLIENT_REPO to a checkout of EventStore-Client-NodeJS at tag v6.2.1 (see ESDB-NOTES.md).');
  }
  const src = join(resolve(repo), 'packages', 'test', 'src');
  if (!existsSync(join(src, 'utils', 'Cluster.ts'))) throw new Error(`${src} is not the client's test suite (packages/test/src)`);
  return { src, utils: join(src, 'utils') };
}

module.exports = { clientSuite };
