/**
 * Migration 4 of the event store (schema.ts): `idem_append` makes one attempt per transaction.
 *
 * Migration 3's function caught a primary-key race (a fast-path single INSERT took the revision it
 * had read as free) and tried again in a loop inside the same transaction. That transaction kept
 * the id it took on its first attempt, and `$all` is ordered by transaction id: a fast-path writer
 * that took revision N + 1 with a later transaction id than ours then sorted AFTER our retried event
 * at N + 2, so `$all` delivered N + 2 before N + 1 and a consumer skipping `revision <= last seen`
 * dropped N + 1 (issue 12, defect 3).
 *
 * Now the function lets that unique violation (constraint `idem_events_pkey`) end its transaction,
 * and the caller calls it again (postgres.event-store.ts), in a new transaction. Why that keeps
 * each stream in revision order in `$all`: an event at revision N + 1 is written only after the
 * transaction that wrote N committed and was seen (the predecessor rule, or max(revision) read in
 * this transaction), and a transaction id is taken at a transaction's first write, so it is larger
 * than every id taken before that commit, N's included. The happy path is unchanged: one call, one
 * round trip, and no subtransaction any more (the EXCEPTION block was one per call).
 *
 * `idem.test_race_delay_ms` (a custom setting, unset in production: `current_setting(…, true)` is
 * NULL) makes the function sleep between reading the stream's revision and writing, so a test can
 * let fast-path writers take that revision in between (test/contracts/all-order.contract.ts). Only a test's
 * own session sets it.
 */
export const IDEM_APPEND_ONE_ATTEMPT_PER_TRANSACTION = idemAppendOneAttemptPerTransaction('jsonb');

/**
 * The function's text for events whose data and metadata are `document` columns: migration 4 made it
 * for jsonb, migration 5 (json-documents-v5.migration.ts) remakes it, unchanged, for json.
 */
export function idemAppendOneAttemptPerTransaction(document: 'jsonb' | 'json'): string {
  return `
CREATE OR REPLACE FUNCTION idem_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data ${document}[], p_metadata ${document}[]
) RETURNS TABLE (outcome text, last_revision bigint, last_txid xid8, last_sequence bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_count   bigint := cardinality(p_ids);
  v_current bigint;
  v_start   bigint;
  v_found   bigint;
  v_delay   text := current_setting('idem.test_race_delay_ms', true);
BEGIN
  -- Two-key form in its own namespace: it cannot meet the single-key locks of migrations or the
  -- projections' lock namespace; two streams sharing a hash merely queue behind each other.
  PERFORM pg_advisory_xact_lock(hashtext('idem.stream'), hashtext(p_stream));
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

  IF coalesce(nullif(v_delay, ''), '0')::int > 0 THEN
    PERFORM pg_sleep(v_delay::int / 1000.0);
  END IF;

  -- A fast-path writer may have taken v_current + 1 since we read it: the primary key then refuses
  -- this insert, the error ends the transaction, and the caller calls again in a new one.
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
`;
}
