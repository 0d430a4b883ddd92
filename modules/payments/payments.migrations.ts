/**
 * The payments module's own tables (not read models, not the event store): webhook dedupe, the
 * recovery audit log and the archive of finished job rows. Ordered migrations, never edited once
 * shipped (add a new one); recorded in `idem_payments_migrations`.
 */
import type { Pool } from 'pg';
import { applyMigrations } from '../../src/database/migrate';

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
  {
    version: 4,
    name: 'who asked for a recovery',
    // The person (role:token id) and X-Request-Id behind a support reconcile; null for the schedule.
    sql: `ALTER TABLE payment_recovery_log ADD COLUMN requested_by text, ADD COLUMN request_id text;`,
  },
];

/** Creates or upgrades the payments tables; safe to call from several processes at once. */
export function migratePayments(pool: Pool): Promise<void> {
  return applyMigrations(pool, 'idem_payments_migrations', PAYMENTS_MIGRATIONS);
}
