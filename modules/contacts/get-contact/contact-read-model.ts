/**
 * The `contacts` read model as the GET route reads it: through its reader view (the live version,
 * see src/subscriptions/read-models/versions.ts), with the pool every module already has.
 */
import type { Pool } from 'pg';
import type { ContactView } from '../contact.view';

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
