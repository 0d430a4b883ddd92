/**
 * Remembers every provider event id once applied (support can see what arrived, retention archives
 * it). Applying is itself idempotent (deterministic event ids, forward-only decisions), so a crash
 * between applying and remembering only means the redelivery is applied again, harmlessly.
 *
 * A succeeded payment for an order Idem did not know yet (a charge made outside Idem) is remembered
 * with its intent, amount and currency: the charge worker looks it up before it charges that order
 * itself (charge-order.job), so the early webhook ends in review as a late one does.
 */
import type { Pool } from 'pg';
import type { OutsidePayment, OutsidePayments } from '../charge-order/outside-payments.decision';

export class WebhookDeliveries implements OutsidePayments {
  constructor(private readonly pool: Pool) {}

  /** Records a delivery; false when this provider event was already remembered (a redelivery). */
  async remember(
    providerEventId: string,
    eventType: string,
    orderId: string | undefined,
    outcome: string,
    outsidePayment?: Omit<OutsidePayment, 'receivedAt'>,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'idem_remember_webhook_v2',
      text: `INSERT INTO payment_webhook_deliveries (provider_event_id, event_type, order_id, outcome, payment_intent_id, amount, currency)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (provider_event_id) DO NOTHING`,
      values: [
        providerEventId,
        eventType,
        orderId ?? null,
        outcome,
        outsidePayment?.paymentIntentId ?? null,
        outsidePayment?.amount ?? null,
        outsidePayment?.currency ?? null,
      ],
    });
    return rowCount === 1;
  }

  /**
   * The outside payments remembered for `orderId`, oldest first, one per intent. Retention moves
   * deliveries older than its window to the archive (never drops them): an order created after that
   * must still meet the payment, so the archive is read too (both tables have a partial index on
   * order_id for exactly these rows).
   */
  async outsidePaymentsFor(orderId: string): Promise<OutsidePayment[]> {
    const { rows } = await this.pool.query<{
      payment_intent_id: string;
      amount: string | null;
      currency: string | null;
      received_at: Date;
    }>({
      name: 'idem_outside_payments_of_order',
      text: `SELECT DISTINCT ON (payment_intent_id) payment_intent_id, amount, currency, received_at
               FROM (SELECT payment_intent_id, amount, currency, received_at FROM payment_webhook_deliveries
                      WHERE order_id = $1 AND payment_intent_id IS NOT NULL
                     UNION ALL
                     SELECT payment_intent_id, amount, currency, received_at FROM payment_webhook_deliveries_archive
                      WHERE order_id = $1 AND payment_intent_id IS NOT NULL) remembered
              ORDER BY payment_intent_id, received_at`,
      values: [orderId],
    });
    return rows
      .map((row) => ({
        paymentIntentId: row.payment_intent_id,
        amount: row.amount === null ? undefined : Number(row.amount),
        currency: row.currency ?? undefined,
        receivedAt: row.received_at.toISOString(),
      }))
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  }
}
