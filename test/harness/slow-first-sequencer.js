/**
 * Starts the slowest spec files first, also on a clean clone. Jest orders by the durations in its
 * cache and, without a cache (CI), by file size; a short file that runs for a minute (a process
 * killed twenty times, 4,000 HTTP requests) would then start late and keep one of the two workers
 * busy after the other ran out of files. Files with a cached duration keep jest's order among
 * themselves; the measured seconds below stand in where the cache has none.
 */
'use strict';
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Seconds per file on two quiet cores, for the files over ~15 s: the first three as measured in CI,
 * the others scaled from runs on a busy machine (2026-12-02) by those three. Only their order matters;
 * a renamed or removed file here merely loses its place at the front of the queue.
 */
const MEASURED_SECONDS = {
  'test/projections/runner-crash.int.spec.ts': 98,
  'test/e2e/exactly-once-charges.e2e.spec.ts': 72,
  'test/e2e/embedded-service.e2e.spec.ts': 71,
  'test/projections/rebuild-under-writes.int.spec.ts': 60,
  'test/architecture/lint-rules.unit.spec.ts': 50,
  'test/chaos/worker-resumes-import.e2e.spec.ts': 37,
  'modules/contacts/import-file/import-file.int.spec.ts': 30,
  'test/contracts/esdb.event-store.int.spec.ts': 27,
  'src/event-store/esdb/esdb.subscription.int.spec.ts': 25,
  'modules/audit/tamper-evidence.int.spec.ts': 23,
  'src/event-store/esdb/esdb.cluster.int.spec.ts': 20,
  'modules/contacts/pull-run/pull-run.int.spec.ts': 20,
  'test/e2e/lost-connections.e2e.spec.ts': 17,
  'src/event-store/postgres/gap-free-subscription.int.spec.ts': 16,
  'src/bootstrap/http-edge.e2e.spec.ts': 15,
  'test/e2e/esdb-service.e2e.spec.ts': 15,
  'modules/payments/charge-invariants.property.int.spec.ts': 15,
  'modules/payments/recover-stuck-charges/recover-stuck-charges.int.spec.ts': 14,
};

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const measured = (test) => MEASURED_SECONDS[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    // jest's cache holds milliseconds.
    const duration = (test) => this.time(test) ?? (measured(test) === undefined ? undefined : measured(test) * 1000);
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const keys = new Map(tests.map((test) => [test, { failed: this.hasFailed(test), duration: duration(test), size: size(test) }]));
    return tests.sort((a, b) => {
      const [x, y] = [keys.get(a), keys.get(b)];
      if (x.failed !== y.failed) return x.failed ? -1 : 1; // jest's rule: what failed last time first
      if ((x.duration === undefined) !== (y.duration === undefined)) return x.duration === undefined ? 1 : -1;
      if (x.duration !== undefined) return y.duration - x.duration;
      return y.size - x.size;
    });
  }
}

module.exports = SlowFirstSequencer;
