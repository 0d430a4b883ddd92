/**
 * The PostgreSQL event store's schema, as ordered migrations (never edited once shipped; add a new one).
 *
 * - `idem_events` has a unique (stream, revision) primary key and a unique event id index, so neither
 *   a revision nor an event id can exist twice whatever the code above does. Event ids are unique
 *   across the store (as in Message DB and Marten), which is stronger than EventStoreDB's per-stream
 *   rule; Idem's own ids are derived from the stream (deterministic-event-id.ts), so they never meet.
 * - Expected revisions are enforced at write time by that primary key plus a predecessor rule: an
 *   event is written at revision N + 1 only if revision N is there (revision 0 only for a new
 *   stream). Two writers at one revision: the second waits on the first's index entry and fails once
 *   it commits. The general path (several events, any, stream_exists) also queues per stream on an
 *   advisory lock. Migrations 1–2 had a stream row as the lock; migration 3 removed it (one write per
 *   append instead of two, docs/BENCHMARKS.md "Appends").
 * - Global order is (transaction id, sequence). Readers only read transactions older than the oldest
 *   one still in flight (`pg_snapshot_xmin`), so an event that commits late can never land behind a
 *   position a subscriber already passed (the rule Emmett 0.43 adopted after losing events, see
 *   reference/event-store-anchors.md §1.6).
 * - Within a stream, revisions appear in `$all` in increasing order: a later revision is written
 *   only after the earlier one committed, by a transaction whose id was taken after that commit
 *   (migration 4, idem-append-v4.migration.ts, says why its retries need a new transaction).
 * - Data and metadata are `json`, kept as written (migration 5, json-documents-v5.migration.ts).
 */
import { IDEM_APPEND_ONE_ATTEMPT_PER_TRANSACTION } from './idem-append-v4.migration';
import { JSON_DOCUMENTS } from './json-documents-v5.migration';

export const EVENT_STORE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'streams and events',
    sql: `
-- Stream names are identifiers: byte order ("C") keeps every index comparison a memcmp instead of a
-- locale-aware strcoll. The stream row is rewritten by every append: fillfactor leaves room on its
-- page so the update stays HOT (no new index entry).
CREATE TABLE idem_streams (
  stream_name text COLLATE "C" PRIMARY KEY,
  revision    bigint NOT NULL CHECK (revision >= 0)
) WITH (fillfactor = 70);

-- The sequence only orders events *within* one transaction (global order is transaction id first),
-- so each connection may take its values in blocks: CACHE spares every append a visit to the one
-- shared sequence page, a hot spot with 16 concurrent writers.
CREATE SEQUENCE idem_events_sequence AS bigint CACHE 100;

CREATE TABLE idem_events (
  stream_name     text COLLATE "C" NOT NULL,
  revision        bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  sequence        bigint      NOT NULL DEFAULT nextval('idem_events_sequence'),
  created         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_name, revision)
);
CREATE UNIQUE INDEX idem_events_stream_event_id ON idem_events (stream_name, event_id);
CREATE UNIQUE INDEX idem_events_global_order ON idem_events (transaction_id, sequence);

/*
 * One call = one round trip = one transaction. p_expected uses EventStoreDB's encoding:
 * -1 no_stream, -2 any, -4 stream_exists, N >= 0 exact. Outcomes:
 *   'appended'  - written; last_revision/last_txid/last_sequence locate the last event
 *   'duplicate' - every id already sits in the stream at the expected revisions; nothing written,
 *                 the original last event is returned (EventStoreDB's idempotent write)
 *   'conflict'  - the expectation does not hold; last_revision is the stream's revision (-1: no stream)
 */
CREATE FUNCTION idem_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (outcome text, last_revision bigint, last_txid xid8, last_sequence bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_count   bigint := cardinality(p_ids);
  v_current bigint;
  v_start   bigint;
  v_found   bigint;
BEGIN
  -- Fast paths: the expectation holds, decided by the same statement that takes the stream lock.
  IF p_expected >= 0 THEN
    UPDATE idem_streams SET revision = p_expected + v_count
     WHERE stream_name = p_stream AND revision = p_expected;
    IF FOUND THEN
      v_current := p_expected;
    END IF;
  ELSIF p_expected IN (-1, -2) THEN
    -- Targeted at the stream row only: a concurrent creator makes us wait for its commit and then
    -- fall through to the checks below, which report the conflict (never a silent merge).
    INSERT INTO idem_streams (stream_name, revision) VALUES (p_stream, v_count - 1)
    ON CONFLICT (stream_name) DO NOTHING;
    IF FOUND THEN
      v_current := -1;
    END IF;
  END IF;

  IF v_current IS NULL THEN
    SELECT s.revision INTO v_current FROM idem_streams s WHERE s.stream_name = p_stream FOR UPDATE;
    IF NOT FOUND THEN
      -- Exact revision or stream_exists on a stream that has no events.
      RETURN QUERY SELECT 'conflict'::text, -1::bigint, NULL::xid8, NULL::bigint;
      RETURN;
    END IF;

    -- Where would these ids have been written the first time?
    IF p_expected IN (-2, -4) THEN
      SELECT e.revision INTO v_start FROM idem_events e WHERE e.stream_name = p_stream AND e.event_id = p_ids[1];
    ELSIF p_expected < v_current THEN
      v_start := p_expected + 1;
    END IF;

    IF v_start IS NOT NULL THEN
      SELECT count(*) INTO v_found
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, i)
        JOIN idem_events e ON e.stream_name = p_stream AND e.revision = v_start + u.i - 1 AND e.event_id = u.id;
      IF v_found = v_count THEN
        RETURN QUERY SELECT 'duplicate'::text, e.revision, e.transaction_id, e.sequence
          FROM idem_events e WHERE e.stream_name = p_stream AND e.revision = v_start + v_count - 1;
      ELSE
        RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint;
      END IF;
      RETURN;
    END IF;

    IF p_expected >= -1 THEN
      -- exact N > current, or no_stream on an existing stream with new ids
      RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint;
      RETURN;
    END IF;

    -- any / stream_exists with new ids: append after whatever is there.
    UPDATE idem_streams SET revision = v_current + v_count WHERE stream_name = p_stream;
  END IF;

  RETURN QUERY
  WITH written AS (
    INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
    SELECT p_stream, v_current + u.i, u.id, u.t, u.d, u.m
      FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS u(id, t, d, m, i)
     ORDER BY u.i
    RETURNING revision, transaction_id, sequence
  )
  SELECT 'appended'::text, w.revision, w.transaction_id, w.sequence FROM written w ORDER BY w.revision DESC LIMIT 1;
END
$$;
`,
  },
  {
    version: 2,
    name: 'category statistics',
    // Category filters (`split_part(stream_name, '-', 1) = ANY(…)`) are opaque to the planner without
    // statistics on that expression: it then picked a sequential scan plus sort for every page of a
    // filtered catch-up. Expression statistics cost nothing on append (unlike an index); ANALYZE
    // fills them now and autovacuum keeps them current.
    sql: `
CREATE STATISTICS idem_events_category_stats ON (split_part(stream_name, '-', 1)) FROM idem_events;
ANALYZE idem_events;`,
  },
  {
    version: 3,
    name: 'unique key as the write-time check',
    // The stream row of migration 1 cost every append a second write (a row update or insert, its WAL
    // and, for new streams, an index entry) only to re-state what the events' primary key already
    // guarantees. See the header comment for why the key alone is enough. The event id index moves
    // from (stream, id) to the id alone, a smaller key for the same per-stream guarantee.
    sql: `
DROP FUNCTION idem_append(text, bigint, uuid[], text[], jsonb[], jsonb[]);
DROP TABLE idem_streams;

-- A 16-byte key instead of (stream name, id): about half the index to write per append.
CREATE UNIQUE INDEX idem_events_event_id ON idem_events (event_id);
DROP INDEX idem_events_stream_event_id;

/*
 * The general append (several events, or any / stream_exists), one call = one round trip = one
 * transaction. p_expected uses EventStoreDB's encoding: -1 no_stream, -2 any, -4 stream_exists,
 * N >= 0 exact. Outcomes:
 *   'appended'  - written; last_revision/last_txid/last_sequence locate the last event
 *   'duplicate' - every id already sits in the stream at the expected revisions; nothing written,
 *                 the original last event is returned (EventStoreDB's idempotent write)
 *   'conflict'  - the expectation does not hold; last_revision is the stream's revision (-1: no stream)
 * Callers of this function queue behind one another per stream (advisory lock); single-event
 * appends on the fast path do not take the lock, so a fast-path writer may still commit at the
 * revision read here as free. The primary key then refuses our insert and we decide again on what
 * is now committed.
 */
CREATE FUNCTION idem_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[]
) RETURNS TABLE (outcome text, last_revision bigint, last_txid xid8, last_sequence bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_count      bigint := cardinality(p_ids);
  v_current    bigint;
  v_start      bigint;
  v_found      bigint;
  v_constraint text;
BEGIN
  -- Two-key form in its own namespace: it cannot meet the single-key locks of migrations or the
  -- projections' lock namespace; two streams sharing a hash merely queue behind each other.
  PERFORM pg_advisory_xact_lock(hashtext('idem.stream'), hashtext(p_stream));
  LOOP
    v_start := NULL;
    SELECT coalesce(max(e.revision), -1) INTO v_current FROM idem_events e WHERE e.stream_name = p_stream;

    -- Where would these ids have been written the first time?
    IF v_current >= 0 AND p_expected IN (-2, -4) THEN
      SELECT e.revision INTO v_start FROM idem_events e WHERE e.stream_name = p_stream AND e.event_id = p_ids[1];
    ELSIF v_current >= 0 AND p_expected < v_current THEN
      v_start := p_expected + 1;
    END IF;

    IF v_start IS NOT NULL THEN
      SELECT count(*) INTO v_found
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, i)
        JOIN idem_events e ON e.stream_name = p_stream AND e.revision = v_start + u.i - 1 AND e.event_id = u.id;
      IF v_found = v_count THEN
        RETURN QUERY SELECT 'duplicate'::text, e.revision, e.transaction_id, e.sequence
          FROM idem_events e WHERE e.stream_name = p_stream AND e.revision = v_start + v_count - 1;
      ELSE
        RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint;
      END IF;
      RETURN;
    END IF;

    IF (p_expected >= 0 AND p_expected <> v_current)
       OR (p_expected = -1 AND v_current >= 0)
       OR (p_expected = -4 AND v_current < 0) THEN
      RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint;
      RETURN;
    END IF;

    BEGIN
      RETURN QUERY
      WITH written AS (
        INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
        SELECT p_stream, v_current + u.i, u.id, u.t, u.d, u.m
          FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS u(id, t, d, m, i)
         ORDER BY u.i
        RETURNING revision, transaction_id, sequence
      )
      SELECT 'appended'::text, w.revision, w.transaction_id, w.sequence FROM written w ORDER BY w.revision DESC LIMIT 1;
      RETURN;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      -- An id already elsewhere in the stream is the caller's conflict; a taken revision is a race.
      IF v_constraint <> 'idem_events_pkey' THEN
        RAISE;
      END IF;
    END;
  END LOOP;
END
$$;
`,
  },
  {
    version: 4,
    name: 'one idem_append attempt per transaction',
    sql: IDEM_APPEND_ONE_ATTEMPT_PER_TRANSACTION,
  },
  {
    version: 5,
    name: 'event documents as json',
    sql: JSON_DOCUMENTS,
  },
];
