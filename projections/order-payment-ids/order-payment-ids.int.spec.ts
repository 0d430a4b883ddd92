/**
 * order_payment_ids is insert-only: a live batch is written with one statement (no look-up of the
 * stored rows first), and the table still equals the fold of the events — the first event naming an
 * id decides its row, in this batch or in an earlier one.
 */
import { Pool } from 'pg';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel } from '../../src/subscriptions/read-models/read-model';
import { applyToTable, versionTable } from '../../src/subscriptions/read-models/read-model.projection';
import { decodeRow } from '../../src/subscriptions/read-models/row-codec';
import { tableSpecOf } from '../../src/subscriptions/read-models/table-spec';
import { installReadModels } from '../../src/subscriptions/read-models/versions';
import { runReadModelMigrations } from '../../src/database/data-source';
import { createTestDatabase } from '../../test/harness/test-database';
import { OrderPaymentIdRow } from './order-payment-ids.entity';
import { orderPaymentIdsReadModel } from './order-payment-ids.projector';

let pool: Pool;
beforeAll(async () => {
  const url = await createTestDatabase('order_payment_ids');
  await runReadModelMigrations(url);
  pool = new Pool({ connectionString: url, max: 2 });
  await installReadModels(pool, [orderPaymentIdsReadModel]);
});
afterAll(() => pool.end());

let revision = 0;
const event = (orderId: string, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(++revision).padStart(12, '0')}`,
  stream: `order-${orderId}`,
  revision,
  position: `0/${revision}` as RecordedEvent['position'],
  type,
  data: { orderId, ...data },
  metadata: { recordedAt: new Date(Date.UTC(2026, 11, 2, 0, 0, revision)).toISOString() } as RecordedEvent['metadata'],
  created: new Date(Date.UTC(2026, 11, 2, 0, 0, revision)),
});

/** Applies a batch as the live runner does, in a transaction, counting the statements it sends. */
async function applyBatch(events: RecordedEvent[]): Promise<number> {
  const client = await pool.connect();
  let statements = 0;
  const counting = new Proxy(client, {
    get: (target, name) =>
      name === 'query'
        ? (...args: unknown[]) => {
            statements++;
            return (target.query as (...a: unknown[]) => unknown)(...args);
          }
        : Reflect.get(target, name),
  });
  try {
    await client.query('BEGIN');
    await applyToTable(orderPaymentIdsReadModel, events, { client: counting, version: 1, mode: 'live' });
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return statements;
}

it('writes each live batch with one statement, and keeps the row of the first event that named an id', async () => {
  const first = [
    event('a', 'ChargeFailed', { attempt: 1, declineCode: 'card_declined', reason: 'declined', paymentIntentId: 'pi_declined' }),
    event('a', 'ChargeSucceeded', { paymentIntentId: 'pi_paid', providerChargeId: 'ch_paid', amount: 4200 }),
  ];
  const second = [
    // Names pi_paid again (already stored) and a second payment the provider holds (new).
    event('a', 'ChargeNeedsReview', { reason: 'the provider holds 2 succeeded payments: pi_paid, pi_second' }),
    event('b', 'ChargeSucceeded', { paymentIntentId: 'pi_other', providerChargeId: 'ch_other', amount: 100 }),
  ];

  expect(await applyBatch(first)).toBe(1);
  expect(await applyBatch(second)).toBe(1);

  const spec = tableSpecOf(OrderPaymentIdRow);
  const { rows } = await pool.query(`SELECT * FROM ${versionTable('order_payment_ids', 1)} ORDER BY payment_id, order_id`);
  const stored = rows.map((raw: Record<string, unknown>) => decodeRow(spec, raw));
  const folded = [...foldReadModel(orderPaymentIdsReadModel, [...first, ...second], new Map()).values()].sort((x, y) =>
    x.paymentId < y.paymentId ? -1 : 1,
  );
  expect(stored).toEqual(folded);
  expect(stored.find((row) => row.paymentId === 'pi_paid')).toMatchObject({ orderId: 'a', namedBy: 'ChargeSucceeded' });
  expect(stored.map((row) => row.paymentId)).toEqual(['ch_other', 'ch_paid', 'pi_declined', 'pi_other', 'pi_paid', 'pi_second']);
});
