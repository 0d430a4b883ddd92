/**
 * The live append statements of the PostgreSQL event store (the schema they write to is in
 * schema.ts, the general path's function in its migrations): what every append sends, as opposed to
 * what a migration ran once.
 */
/*
 * The commonest append, one event with `no_stream` or an exact revision, is one plain INSERT with
 * scalar parameters in its own implicit transaction:
 *   - no_stream writes revision 0;
 *   - exact N writes revision N + 1, and only if revision N is there.
 * The primary key (stream, revision) does the concurrency control: of two writers at one revision
 * the second waits for the first to commit and then fails, whatever either saw before. With the
 * predecessor rule, revisions stay gap-free, so "revision N + 1 was free and N was there" is exactly
 * "the stream's last revision was N". A failure or an empty answer means the expectation did not
 * hold as the fast path needs (a conflict, or a retried duplicate): the caller then asks
 * idem_append, which decides between the two. Parameters: $1 stream, $2 event id, $3 type, $4 data,
 * $5 metadata, and for exact appends $6 the expected revision.
 *
 * Why not a plpgsql call: for one event this costs about a quarter less server CPU per append (no
 * array literals to parse and unnest, no function frame, no RETURN QUERY tuplestore; see
 * docs/BENCHMARKS.md, "Appends").
 */
// Only what the caller cannot know: the position, already in checkpoint form (the revision written is
// the expected one plus one). node-postgres describes the result of every execution, so every
// returned column is a field description the server builds and the client parses on each append;
// the gain was below bench:append's noise, the statement is simpler for it.
const RETURNING_APPENDED = `RETURNING transaction_id::text || '/' || sequence::text AS position`;

export const APPEND_ONE_TO_NEW_STREAM_SQL = `
INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
VALUES ($1, 0, $2, $3, $4, $5)
${RETURNING_APPENDED}`;

export const APPEND_ONE_AT_REVISION_SQL = `
INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
SELECT $1, $6::bigint + 1, $2, $3, $4, $5
 WHERE EXISTS (SELECT FROM idem_events WHERE stream_name = $1 AND revision = $6::bigint)
${RETURNING_APPENDED}`;

/*
 * Single-event appends made in the same turn of the event loop, as one statement and one commit
 * (see grouped-appends.ts): each row obeys exactly the rules of the two statements above (revision
 * 0 for no_stream, N + 1 only after N), and the primary key still does the concurrency control.
 * ON CONFLICT DO NOTHING here only keeps one append's refusal from failing the others: a row not
 * returned is NOT taken as written, its caller asks idem_append, as after a refused single INSERT.
 * Each returned row names the revision it was written at: a caller is answered "written" only by the
 * row of its own expectation (stream, id and revision = expected + 1). Two callers may append one
 * event id under different expectations in one group; the row written for one of them is not the
 * other's answer (issue 12, defect 1: that answered a refused append as written).
 * $1 is a JSON array of {stream_name, expected (-1: no_stream), event_id, event_type, data, metadata}.
 * The predecessor is looked up per row through a LATERAL join, not with EXISTS: the planner
 * counts on a hundred rows from json_to_recordset, and a plan cached while the table was small
 * turned EXISTS into a hashed subplan, which reads the whole table on every call (a third of a
 * second at 200,000 events; young-table-plans.int.spec.ts).
 */
export const APPEND_GROUP_SQL = `
INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata)
SELECT a.stream_name, a.expected + 1, a.event_id, a.event_type, a.data, a.metadata
  FROM json_to_recordset($1::json) AS a(stream_name text, expected bigint, event_id uuid, event_type text, data json, metadata json)
  LEFT JOIN LATERAL (SELECT true AS found FROM idem_events e WHERE e.stream_name = a.stream_name AND e.revision = a.expected LIMIT 1) p ON true
 WHERE a.expected = -1 OR p.found
ON CONFLICT DO NOTHING
RETURNING stream_name, event_id::text AS event_id, revision, transaction_id::text || '/' || sequence::text AS position`;

/*
 * The general append (idem_append, in the migrations), for several events or any other expectation.
 * Data and metadata travel as one JSON array each, split back into the function's arrays in order:
 * as `json[]` parameters, node-postgres escapes every document into an array literal (each quote and
 * backslash doubled, two String.replace copies of every document), which was the largest single
 * allocation of an import's run records (~10 % of the service's allocated bytes in bench:import's
 * push) and its escaping a few per cent of its CPU. `json_array_elements` returns each element's
 * text as it was sent (a `json` value keeps its text), so the stored documents are byte for byte
 * the JSON.stringify output, as the hash links need (hash-link.ts).
 */
export const IDEM_APPEND_SQL = `
SELECT * FROM idem_append($1, $2, $3::uuid[], $4::text[],
  ARRAY(SELECT d.value FROM json_array_elements($5::json) WITH ORDINALITY AS d(value, n) ORDER BY d.n),
  ARRAY(SELECT m.value FROM json_array_elements($6::json) WITH ORDINALITY AS m(value, n) ORDER BY m.n))`;
