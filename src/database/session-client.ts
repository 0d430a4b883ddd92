/**
 * A connection of its own beside a pool (a lock session, a liveness session), made with the pool's own
 * client class when it has one: the runtime's pools use clientWithDeadlines (answer-deadlines.ts), so a
 * handshake that never completes fails instead of hanging the caller, and a lock wait the server
 * confirms is still never cut.
 */
import { Client, type ClientBase, type ClientConfig } from 'pg';

/** Connection settings as a pool's `options` carry them: possibly with the pool's client class. */
export type SessionConnection = ClientConfig & { Client?: new () => ClientBase };

export function sessionClient(connection: SessionConnection, applicationName: string): Client {
  // pg types a pool's client class as taking no settings; every class it is given here takes them, as pg's own does.
  const SessionClient = (connection.Client ?? Client) as typeof Client;
  return new SessionClient({ ...connection, keepAlive: true, application_name: applicationName });
}
