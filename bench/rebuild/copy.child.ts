/**
 * The ceiling: PostgreSQL's own bulk load. The same rows as the history (stream, revision, id, type,
 * data, metadata) are exported once to a server-side file, then each round times a `COPY … FROM`
 * that file into a fresh table with no index and no constraint — no parsing or logic of ours at all.
 * (Server-side COPY needs a superuser, as the embedded server's is.)
 */
import { Client } from 'pg';
import { childMain } from '../lib/child';

export interface CopyInput {
  url: string;
  file: string;
  run: number;
}

export interface CopyResult {
  run: number;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

childMain<CopyInput, CopyResult>(async (input) => {
  const client = new Client({ connectionString: input.url });
  await client.connect();
  try {
    if (input.run === 1) {
      await client.query(
        `COPY (SELECT stream_name, revision, event_id, event_type, data, metadata FROM idem_events ORDER BY transaction_id, sequence) TO '${input.file}'`,
      );
    }
    await client.query('DROP TABLE IF EXISTS copy_ceiling');
    await client.query(
      'CREATE TABLE copy_ceiling (stream_name text, revision bigint, event_id uuid, event_type text, data jsonb, metadata jsonb)',
    );
    const started = process.hrtime.bigint();
    const { rowCount } = await client.query(`COPY copy_ceiling FROM '${input.file}'`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await client.query('DROP TABLE copy_ceiling');
    return { run: input.run, rows: rowCount ?? 0, seconds, rowsPerSecond: (rowCount ?? 0) / seconds };
  } finally {
    await client.end();
  }
});
