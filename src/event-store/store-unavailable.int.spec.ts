/**
 * The drivers' real errors, each raised by a real failure (a refused connection, a terminated backend, a
 * bad statement), read by `isStoreUnavailable`: only the ones that pass with time count as unavailable.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { Client, Pool } from 'pg';
import { QueryFailedError } from 'typeorm';
import { createTestDatabase } from '../../test/harness/test-database';
import { findFreePort } from '../database/free-port';
import { WrongExpectedVersion } from './errors';
import { isStoreUnavailable } from './store-unavailable';

const failureOf = async (action: () => Promise<unknown>): Promise<unknown> => {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
};

describe('isStoreUnavailable', () => {
  let url: string;
  let closedPort: number;
  beforeAll(async () => {
    url = await createTestDatabase('store_unavailable');
    closedPort = await findFreePort();
  });

  it('is true for a PostgreSQL that refuses the connection, from a client and from a pool', async () => {
    const client = new Client({ host: '127.0.0.1', port: closedPort, user: 'x', database: 'x' });
    const refused = await failureOf(() => client.connect());
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isStoreUnavailable(refused)).toBe(true);

    const pool = new Pool({ host: '127.0.0.1', port: closedPort, user: 'x', database: 'x' });
    try {
      expect(isStoreUnavailable(await failureOf(() => pool.query('SELECT 1')))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('is true for a query on a backend the server terminated (57P01), and for the next one on that client', async () => {
    const client = new Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const running = failureOf(() => client.query('SELECT pg_sleep(30)'));
      await admin.query('SELECT pg_terminate_backend($1, 10000)', [rows[0].pid]);
      const terminated = await running;
      expect((terminated as { code?: string }).code).toBe('57P01');
      expect(isStoreUnavailable(terminated)).toBe(true);
      expect(isStoreUnavailable(new QueryFailedError('SELECT pg_sleep(30)', [], terminated as Error))).toBe(true);
      expect(isStoreUnavailable(await failureOf(() => client.query('SELECT 1')))).toBe(true);
    } finally {
      await admin.end();
      await client.end().catch(() => undefined);
    }
  });

  it('is true for an EventStoreDB that cannot be reached', async () => {
    const client = EventStoreDBClient.connectionString(`esdb://127.0.0.1:${closedPort}?tls=false`);
    try {
      const failure = await failureOf(async () => {
        for await (const event of client.readStream('order-1', { maxCount: 1 })) void event;
      });
      expect(isStoreUnavailable(failure)).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it('is false for what a retry would not mend: a bad statement, a broken rule, a version conflict, a plain bug', async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const syntax = await failureOf(() => client.query('SELEC 1'));
      expect((syntax as { code?: string }).code).toBe('42601');
      expect(isStoreUnavailable(syntax)).toBe(false);
      expect(isStoreUnavailable(new QueryFailedError('SELEC 1', [], syntax as Error))).toBe(false);
      const unique = await failureOf(() => client.query('CREATE TEMP TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1), (1)'));
      expect((unique as { code?: string }).code).toBe('23505');
      expect(isStoreUnavailable(unique)).toBe(false);
    } finally {
      await client.end();
    }
    expect(isStoreUnavailable(new WrongExpectedVersion('order-1', 0, 1))).toBe(false);
    expect(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isStoreUnavailable(undefined)).toBe(false);
  });
});
