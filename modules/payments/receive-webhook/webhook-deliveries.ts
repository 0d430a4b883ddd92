/**
 * Remembers every provider event id once applied (support can see what arrived, retention archives
 * it). Applying is itself idempotent (deterministic event ids, forward-only decisions), so a crash
 * between applying and remembering only means the redelivery is applied again, harmlessly.
 */
import type { Pool } from 'pg';

export class WebhookDeliveries {
  constructor(private readonly pool: Pool) {}

  /** Records a delivery; false when this provider event was already remembered (a redelivery). */
  async remember(providerEventId: string, eventType: string, orderId: string | undefined, outcome: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'idem_remember_webhook',
      text: `INSERT INTO payment_webhook_deliveries (provider_event_id, event_type, order_id, outcome) VALUES ($1, $2, $3, $4)
             ON CONFLICT (provider_event_id) DO NOTHING`,
      values: [providerEventId, eventType, orderId ?? null, outcome],
    });
    return rowCount === 1;
  }
}
