/**
 * A real projection-runner process for the crash and takeover proofs: runs every read model and
 * reactor against DATABASE_URL and reports on stdout, one JSON object per line.
 *
 * - WAIT_FOR_GO=1: load everything, report `loaded`, start only when "go" arrives on stdin (lets a
 *   test warm the next process up while the current one runs).
 * - BLOCK_IN_BATCH=n: stop inside the n-th batch transaction (rows written, checkpoint moved, not
 *   committed), report `blocked` and wait there to be killed.
 * - AUDIT_REACTOR=1: the reactor also records each ChargeRequested it handled in
 *   `test_reactor_deliveries`, in the same transaction, so a test can count deliveries exactly.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres.event-store';
import type { Projection } from '../../src/subscriptions/projection';
import { startProjections } from '../../src/subscriptions/start-projections';
import { chargeOrderReactor } from '../../modules/payments/charge-order/charge-order.reactor';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

function audited(reactor: Projection): Projection {
  return {
    ...reactor,
    async handle(events, context) {
      await reactor.handle(events, context);
      const ids = events.filter((e) => e.type === 'ChargeRequested').map((e) => e.id);
      await context.client.query('INSERT INTO test_reactor_deliveries (event_id) SELECT unnest($1::text[])', [ids]);
    },
  };
}

async function main() {
  report({ event: 'loaded' });
  if (process.env.WAIT_FOR_GO) await once(createInterface({ input: process.stdin }), 'line');
  const blockInBatch = Number(process.env.BLOCK_IN_BATCH ?? 0);
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
  const store = new PostgresEventStore(pool);
  let batches = 0;
  const running = await startProjections({
    store,
    pool,
    readModels: READ_MODELS,
    reactors: process.env.AUDIT_REACTOR
      ? REACTORS.map((reactor) => (reactor === chargeOrderReactor ? audited(reactor) : reactor))
      : REACTORS,
    retryDelayMs: { initial: 50, max: 500 },
    onStatus: (status) => report({ event: 'status', projection: status.name, state: status.state, version: status.version }),
    log: (level, message, error) => level === 'error' && report({ event: 'error', message, error: String(error) }),
    observer: {
      beforeCommit: async (member, events) => {
        if (++batches !== blockInBatch) return;
        report({ event: 'blocked', projection: member.projection.name, events: events.length });
        await new Promise(() => undefined); // held open until the test kills this process
      },
      committed: (member, events) => {
        if (events.length)
          report({ event: 'committed', projection: member.projection.name, version: member.version, events: events.length });
      },
    },
  });
  const shutdown = async () => {
    await running.stop();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error) => {
  report({ event: 'crashed', error: String(error?.stack ?? error) });
  process.exit(1);
});
