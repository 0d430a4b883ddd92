/**
 * Remembers every provider event id once applied (support can see what arrived, retention archives
 * it). Applying is itself idempotent (deterministic event ids, forward-only decisions), so a crash
 * between applying and remembering only means the redelivery is applied again, harmlessly.
 */
import type { Pool } from 'pg';
import { applyMigrations } from '../../../src/database/migrate';

/** The payments module's own tables (not read models): webhook dedupe and the recovery log. */
export const PAYMENTS_MIGRATIONS = [
  {
    version: 1,
    name: 'webhook deliveries',
    sql: `
CREATE TABLE payment_webhook_deliveries (
  provider_event_id text PRIMARY KEY,
  event_type        text NOT NULL,
  order_id          text,
  outcome           text NOT NULL,
  received_at       timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE payment_webhook_deliveries_archive (LIKE payment_webhook_deliveries INCLUDING ALL);`,
  },
  {
    version: 2,
    name: 'recovery audit log',
    sql: `
CREATE TABLE payment_recovery_log (
  id           bigserial PRIMARY KEY,
  order_id     text NOT NULL,
  provider_key text NOT NULL,
  old_status   text NOT NULL,
  new_status   text NOT NULL,
  reason       text NOT NULL,
  trigger      text NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_recovery_log_order ON payment_recovery_log (order_id);`,
  },
  {
    version: 3,
    name: 'job archive',
    sql: `
CREATE TABLE payment_job_archive (
  job_id          bigint PRIMARY KEY,
  task_identifier text NOT NULL,
  payload         json NOT NULL,
  attempts        smallint NOT NULL,
  max_attempts    smallint NOT NULL,
  last_error      text,
  job_key         text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  archived_at     timestamptz NOT NULL DEFAULT now()
);`,
  },
];

export class WebhookDeliveries {
  constructor(private readonly pool: Pool) {}

  migrate(): Promise<void> {
    return applyMigrations(this.pool, 'idem_payments_migrations', PAYMENTS_MIGRATIONS);
  }

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
