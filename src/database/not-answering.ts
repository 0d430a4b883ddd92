/**
 * PostgreSQL stopped answering: a connection's handshake or a statement got no answer in time (a
 * paused server, a partition that drops packets), so the connection was dropped, or a new one was not
 * even tried while the server is known not to answer. The code is Node's own for a peer that stopped
 * answering a socket (ETIMEDOUT), which `isStoreUnavailable` reads as "try again later": the api
 * answers 503 STORE.UNAVAILABLE with Retry-After, as it does when the EventStoreDB adapter's read
 * deadline expires.
 */
export class PostgresNotAnswering extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(message: string) {
    super(message);
    this.name = 'PostgresNotAnswering';
  }
}
