/**
 * The `contacts` read model as the GET route reads it: through its reader view (the live version,
 * see src/subscriptions/read-models/versions.ts), with the pool every module already has.
 */
import type { Pool } from 'pg';
import type { ContactView } from '../contact.view';
import { encodeTrailCursor, type TrailKey } from './trail-cursor';

export async function findContactRow(pool: Pool, source: string, sourceId: string): Promise<ContactView | undefined> {
  const { rows } = await pool.query(
    `SELECT source, source_id, version, updated_at, checksum, source_event_id, fields, revision FROM contacts WHERE source = $1 AND source_id = $2`,
    [source, sourceId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    source: row.source,
    sourceId: row.source_id,
    ...(row.version !== null ? { version: Number(row.version) } : {}),
    ...(row.updated_at !== null ? { updatedAt: (row.updated_at as Date).toISOString() } : {}),
    checksum: row.checksum,
    ...(row.source_event_id !== null ? { sourceEventId: row.source_event_id } : {}),
    fields: row.fields,
    revision: Number(row.revision),
  };
}

/** One row of `import_events`: what one import did with this record, and why. */
export interface ImportTrail {
  runId: string;
  seq: number;
  outcome: string;
  reason?: string;
  version?: number;
  eventId?: string;
  revision: number | null;
  recordedAt: string;
}

/**
 * The runs that touched a source record, oldest first, a page at a time: `limit` rows after the key
 * `after` (the last row of the page before), read with one row more, which says whether a page follows.
 */
export async function findImportTrail(
  pool: Pool,
  source: string,
  sourceId: string,
  page: { limit: number; after?: TrailKey },
): Promise<{ imports: ImportTrail[]; next: string | null }> {
  const { after, limit } = page;
  const { rows } = await pool.query(
    `SELECT run_id, seq, outcome, reason, source_version, event_id, contact_revision, recorded_at FROM import_events
      WHERE source = $1 AND source_id = $2 AND ($3::timestamptz IS NULL OR (recorded_at, run_id, seq) > ($3::timestamptz, $4, $5))
      ORDER BY recorded_at, run_id, seq LIMIT $6`,
    [source, sourceId, after?.recordedAt ?? null, after?.runId ?? null, after?.seq ?? null, limit + 1],
  );
  const imports = rows.slice(0, limit).map((row): ImportTrail => ({
    runId: row.run_id,
    seq: row.seq,
    outcome: row.outcome,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.source_version !== null ? { version: Number(row.source_version) } : {}),
    ...(row.event_id !== null ? { eventId: row.event_id } : {}),
    revision: row.contact_revision === null ? null : Number(row.contact_revision),
    recordedAt: (row.recorded_at as Date).toISOString(),
  }));
  return { imports, next: rows.length > limit ? encodeTrailCursor(imports.at(-1)!) : null };
}
