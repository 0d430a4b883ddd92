/**
 * `pool.query()` in pg-pool releases its connection with the query's error, and a connection released
 * with an error is closed, whatever the error was. A statement the server refused (a unique violation,
 * a raised exception) leaves the session perfectly usable, so closing it only means that the next
 * checkout pays for a new backend: fork, authentication, catalog caches, every named statement
 * prepared again. In bench:charges that was ~200 new backends per round, one per append conflict.
 *
 * This runs one statement on a pooled connection and closes it only when the connection itself
 * failed (a socket error, a FATAL from the server): use it where refusals are expected.
 */
import { DatabaseError, type Pool, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';

export async function queryKeepingConnection<R extends QueryResultRow>(pool: Pool, query: QueryConfig): Promise<QueryResult<R>> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await client.query<R>(query);
  } catch (error) {
    if (!isRefusedStatement(error)) broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The server refused the statement (severity ERROR) and kept the session: the connection is fine. */
export function isRefusedStatement(error: unknown): boolean {
  return error instanceof DatabaseError && error.severity === 'ERROR';
}
