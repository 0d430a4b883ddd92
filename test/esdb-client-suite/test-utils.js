/**
 * What the suite imports as `@test-utils` (its `src/utils/index.ts`): the client's own helpers, except
 * `Cluster`, which starts the emulator instead of Docker containers (cluster.ts).
 */
const { clientSuite } = require('./checkout');
const { Cluster } = require('./cluster');

const { utils } = clientSuite();
const helpers = [
  'collect',
  'createManyPs',
  'Defer',
  'delay',
  'testEvents',
  'getCurrentConnection',
  'matchServerVersion',
  'optionalDescribe',
  'postEventViaHttpApi',
];

module.exports = Object.assign({}, ...helpers.map((name) => require(`${utils}/${name}`)), {
  Cluster,
  createTestNode: () => new Cluster(1),
  createTestCluster: (count = 3) => new Cluster(count),
  createInsecureTestNode: () => new Cluster(1, true),
  createInsecureTestCluster: (count = 3) => new Cluster(count, true),
});
