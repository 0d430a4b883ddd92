/**
 * The audit chain's tables. They are not a versioned read model: a blue/green rebuild would rehash
 * whatever the log holds now, so a rebuild after history was rewritten would bless the rewrite. The
 * chain is written once, forwards, and its rows refuse UPDATE, DELETE and TRUNCATE — which stops
 * mistakes and casual edits, not an owner of the database (docs/AUDIT.md says what does).
 *
 * - audit_chain: one row per event in the global order (event_number 1, 2, …);
 * - audit_seals: every N events, the running digest over the chain up to that event;
 * - audit_chain_head: one row, where the chain ends, moved in the projector's transaction.
 */
import type { Pool } from 'pg';
import { applyMigrations } from '../../src/database/migrate';
import { GENESIS_HASH } from './chain-hash';

export const AUDIT_CHAIN_MIGRATIONS = [
  {
    version: 1,
    name: 'audit chain, seals and head',
    sql: `
CREATE TABLE audit_chain (
  event_number bigint PRIMARY KEY,
  stream       text COLLATE "C" NOT NULL,
  revision     bigint NOT NULL,
  event_id     text NOT NULL,
  position     text NOT NULL,
  event_hash   text NOT NULL,
  chain_hash   text NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE audit_seals (
  events_sealed bigint PRIMARY KEY,
  position      text NOT NULL,
  digest        text NOT NULL,
  created       timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE audit_chain_head (
  id             smallint PRIMARY KEY CHECK (id = 1),
  events_chained bigint NOT NULL,
  digest         text NOT NULL,
  position       text
);
INSERT INTO audit_chain_head (id, events_chained, digest) VALUES (1, 0, '${GENESIS_HASH}');

CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: the audit chain is never edited (docs/AUDIT.md)', TG_TABLE_NAME;
END $$;
CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_chain_no_truncate BEFORE TRUNCATE ON audit_chain FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_seals_append_only BEFORE UPDATE OR DELETE ON audit_seals FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();`,
  },
];

/** Creates the audit tables; safe with several processes starting at once. */
export function migrateAuditChain(pool: Pool): Promise<void> {
  return applyMigrations(pool, 'idem_audit_migrations', AUDIT_CHAIN_MIGRATIONS);
}
