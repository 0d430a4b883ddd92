/**
 * The payments module's own tables (not read models, not the event store): webhook dedupe (with the
 * outside payments of orders not known yet), the recovery audit log, the archive of finished job
 * rows and the Idempotency-Keys of duplicate charge requests. Ordered migrations, never edited once
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
  {
    version: 5,
    name: 'outside payments of orders not known yet',
    // A succeeded payment whose webhook came before its order existed (a charge made outside Idem):
    // the charge worker looks these up by order id before its first provider call. Only those rows
    // carry an intent, so the partial indexes stay small. The archive gets the same columns in the
    // same order: retention moves rows with `SELECT *`, and the check reads archived rows too.
    sql: `
ALTER TABLE payment_webhook_deliveries ADD COLUMN payment_intent_id text, ADD COLUMN amount bigint, ADD COLUMN currency text;
ALTER TABLE payment_webhook_deliveries_archive ADD COLUMN payment_intent_id text, ADD COLUMN amount bigint, ADD COLUMN currency text;
CREATE INDEX payment_webhook_deliveries_outside_payment ON payment_webhook_deliveries (order_id) WHERE payment_intent_id IS NOT NULL;
CREATE INDEX payment_webhook_deliveries_archive_outside_payment ON payment_webhook_deliveries_archive (order_id)
  WHERE payment_intent_id IS NOT NULL;`,
  },
  {
    version: 6,
    name: 'idempotency keys of duplicate charge requests',
    // A charge request answered as a duplicate under an Idempotency-Key its order's stream does not
    // name: the key, the request it was answered with and its body's fingerprint (request-keys.ts).
    // Kept, not archived: a retry under the key must meet its answer however late it comes, as a key
    // recorded in a ChargeRequested does.
    sql: `
CREATE TABLE payment_request_keys (
  order_id            text NOT NULL,
  idempotency_key     text NOT NULL,
  request_number      integer NOT NULL,
  request_fingerprint text NOT NULL,
  recorded_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (order_id, idempotency_key)
);`,
  },
];

/** Creates or upgrades the payments tables; safe to call from several processes at once. */
export function migratePayments(pool: Pool): Promise<void> {
  return applyMigrations(pool, 'idem_payments_migrations', PAYMENTS_MIGRATIONS);
}
