/**
 * Migration 5 of the event store (schema.ts): events keep their data and metadata as `json` (the
 * text as written) instead of `jsonb` (a parsed binary tree).
 *
 * The store never looks inside an event: no query, index or constraint reads a key of data or
 * metadata, so jsonb's parsed form bought nothing, and it cost on both sides of every event. On the
 * way in PostgreSQL parsed each document into a tree; on the way out every read rendered the tree
 * back to text (jsonb_out): about 19 µs of server CPU per contact-import event, more than the rest
 * of reading the event. `json` checks the syntax on the way in and hands the same text back on the
 * way out. What a reader sees is unchanged: the same values, parsed by the same JSON.parse. It is also
 * closer to EventStoreDB, which keeps an event's bytes as written.
 *
 * What jsonb refused and json would take: the escape \u0000, which no PostgreSQL text can hold, so a
 * read model copying such a value into a text or jsonb column would stop on that event for good. The
 * adapter refuses it before writing instead (documents.ts), as jsonb did, with a clear error.
 *
 * The ALTER rewrites the events table once (its indexes too) under an exclusive lock: on a large
 * existing store, run the upgrade in a maintenance window.
 */
import { idemAppendOneAttemptPerTransaction } from './idem-append-v4.migration';

export const JSON_DOCUMENTS = `
ALTER TABLE idem_events
  ALTER COLUMN data TYPE json USING data::json,
  ALTER COLUMN metadata TYPE json USING metadata::json;
DROP FUNCTION idem_append(text, bigint, uuid[], text[], jsonb[], jsonb[]);
${idemAppendOneAttemptPerTransaction('json')}`;
