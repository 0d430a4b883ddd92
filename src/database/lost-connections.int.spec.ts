/**
 * A server that drops a connection while the client is checked out of its pool (PostgreSQL resets every
 * connection after a backend crash; here one backend is terminated) must not kill the process: before,
 * the client's 'error' event had no listener and the api exited. Jest fails a file whose process throws
 * from an unhandled 'error' event, so each case also fails on a pool without the guard.
 */
import { Pool, type ClientBase } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { surviveLostConnections } from './lost-connections';

let url: string;
let admin: Pool;

beforeAll(async () => {
  url = await createTestDatabase('lost_connections');
  admin = new Pool({ connectionString: url, max: 1 });
});
afterAll(() => admin.end());

/** Terminates the client's backend, waits for it to be gone and for the client to see its connection end. */
async function dropConnectionOf(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // Not events.once: it listens for 'error' too, which would stand in for the guard under test.
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  await admin.query('SELECT pg_terminate_backend($1, 10000)', [rows[0].pid]);
  await ended;
}

describe('lost connections', () => {
  it('a pool client dropped while checked out reports the loss, fails its next query, and the pool connects again', async () => {
    const lost: Error[] = [];
    const pool = surviveLostConnections(new Pool({ connectionString: url, max: 2 }), (error) => lost.push(error));
    const client = await pool.connect();
    try {
      await dropConnectionOf(client);
      // The server's FATAL message, then the socket's end: each reaches the guard, neither the process.
      expect(lost.length).toBeGreaterThan(0);
      expect(lost.every((error) => /terminat/i.test(error.message))).toBe(true);
      await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable/);
    } finally {
      client.release();
    }
    try {
      const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
