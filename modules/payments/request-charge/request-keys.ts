/**
 * The Idempotency-Keys of charge requests answered as duplicates. A key that created a request is
 * recorded in its `ChargeRequested`; a duplicate writes nothing to the stream, so without this its
 * key would be unknown, and a retry under it after a decline would start a new charge instead of
 * replaying the answer the key got (DESIGN §9.4).
 *
 * A row, not an event on `order-<id>`: the worker appends its outcome at the exact revision of its
 * attempt, so an event written there by a duplicate arriving mid-attempt (a double click under a fresh
 * key is exactly that) would make the outcome conflict and leave the order to be verified after the
 * attempt's lease. The row costs one insert (a no-op once the key is there) for each duplicate under
 * a key the stream does not name — none for duplicates without a key, under the key of the request or
 * on a paid order — and one primary-key read only for such a key on an order that was declined or
 * asked for more than once (needsKeyOnRecord).
 */
import type { Pool } from 'pg';

/** The request a key was answered with, and the body it came with. */
export interface KeyOnRecord {
  requestNumber: number;
  requestFingerprint: string;
}

export class RequestKeys {
  constructor(private readonly pool: Pool) {}

  async keyOnRecord(orderId: string, idempotencyKey: string): Promise<KeyOnRecord | undefined> {
    const { rows } = await this.pool.query<{ request_number: number; request_fingerprint: string }>({
      name: 'idem_request_key_of_order',
      text: 'SELECT request_number, request_fingerprint FROM payment_request_keys WHERE order_id = $1 AND idempotency_key = $2',
      values: [orderId, idempotencyKey],
    });
    return rows[0] && { requestNumber: rows[0].request_number, requestFingerprint: rows[0].request_fingerprint };
  }

  /** Remembers the key's answer; the first duplicate under a key decides it (a concurrent one finds it taken). */
  async remember(orderId: string, idempotencyKey: string, key: KeyOnRecord): Promise<void> {
    await this.pool.query({
      name: 'idem_remember_request_key',
      text: `INSERT INTO payment_request_keys (order_id, idempotency_key, request_number, request_fingerprint)
             VALUES ($1, $2, $3, $4) ON CONFLICT (order_id, idempotency_key) DO NOTHING`,
      values: [orderId, idempotencyKey, key.requestNumber, key.requestFingerprint],
    });
  }
}
