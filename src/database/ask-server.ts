/**
 * Asks PostgreSQL, on a connection of its own, whether it is still running a statement for the backend
 * `pid`: the check behind the statement deadline (answer-deadlines.ts). The question and its answer
 * travel on a fresh connection, so a pool that is full or a connection whose answers are lost cannot
 * hold it up; it gets `limitMs` for everything, handshake included.
 */
import { Client, DatabaseError, type ClientConfig } from 'pg';

/**
 * - `working`: the backend is running a statement (state `active`, which includes waiting for a lock).
 * - `not-working`: the server answered, and the backend is idle or gone: the statement's answer was lost.
 * - `no-answer`: nothing within `limitMs`, or no connection at all: the server is stalled or unreachable.
 * - `inconclusive`: the server answered with an error (out of connections, starting up): it is alive.
 */
export type ServerVerdict = 'working' | 'not-working' | 'no-answer' | 'inconclusive';

export async function askWhetherWorking(connection: ClientConfig, pid: number | null, limitMs: number): Promise<ServerVerdict> {
  const client = new Client({ ...connection, application_name: 'idem-answer-check' });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<ServerVerdict>((resolve) => {
    timer = setTimeout(() => resolve('no-answer'), limitMs);
  });
  const asked = (async (): Promise<ServerVerdict> => {
    await client.connect();
    const { rows } = await client.query<{ state: string | null }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [pid]);
    return rows[0]?.state === 'active' ? 'working' : 'not-working';
  })().catch((error: unknown): ServerVerdict => (error instanceof DatabaseError ? 'inconclusive' : 'no-answer'));
  const verdict = await Promise.race([asked, expired]);
  clearTimeout(timer);
  // A check that got no answer must not linger either: its socket goes at once.
  if (verdict === 'no-answer') client.connection.stream.destroy();
  else void client.end().catch(() => undefined);
  return verdict;
}
