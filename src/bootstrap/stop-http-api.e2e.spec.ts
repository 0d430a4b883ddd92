/**
 * SIGTERM on the compiled service while storefront clients hold keep-alive connections. The stop used
 * to close idle keep-alive connections at the moment the listener closed (Node's server.close()), so
 * a POST written on one just then was reset with no answer (2 of 600 in the black-box round).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';
import { startService, type ServiceProcess } from '../../test/harness/service-process';
import { listenOnFreePort, startTestApp, type TestApp } from '../../test/harness/test-app';
import { createTestDatabase } from '../../test/harness/test-database';
import { waitUntil } from '../../test/harness/wait-until';
import { stopHttpApi } from './stop-http-api';

jest.setTimeout(120_000);

const charge = JSON.stringify({ amount: 1250, currency: 'EUR', customerId: 'cus_drain' });
const CONNECTIONS = 16;

let dataDir: string;
beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'idem-drain-'))));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The service on a database of its own; the sandbox's state in a temporary directory. */
async function startApi(label: string): Promise<{ service: ServiceProcess; databaseUrl: string; port: number }> {
  const databaseUrl = await createTestDatabase(label);
  const service = await startService({ DATABASE_URL: databaseUrl, IDEM_DATA_DIR: dataDir, IDEM_SANDBOX_PORT: '0' });
  return { service, databaseUrl, port: Number(new URL(service.apiUrl).port) };
}

/** Whether nothing listens on `port` any more (a new connection is refused). */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });

type Outcome =
  | { kind: 'answered'; orderId: string; status: number; code?: string; connection?: string }
  | { kind: 'refused' }
  | { kind: 'failed'; orderId: string; error: string; reusedSocket: boolean };

/** One charge on the agent's connections; a refused connection is one nothing was sent on. */
function postCharge(agent: Agent, port: number): Promise<Outcome> {
  const orderId = `drain-${randomUUID()}`;
  return new Promise((resolve) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: `/v1/orders/${orderId}/charge`,
        headers: {
          authorization: 'Bearer dev-storefront',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(charge),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          const code = response.statusCode === 503 ? (JSON.parse(body) as { code?: string }).code : undefined;
          resolve({ kind: 'answered', orderId, status: response.statusCode!, code, connection: response.headers.connection });
        });
      },
    );
    sent.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED'
          ? { kind: 'refused' }
          : { kind: 'failed', orderId, error: `${error.code}: ${error.message}`, reusedSocket: sent.reusedSocket },
      ),
    );
    sent.end(charge);
  });
}

describe('SIGTERM while clients send charges on keep-alive connections', () => {
  it('answers every request sent (202, or 503 SERVICE.STOPPING with Connection: close), resets none, and records every 202', async () => {
    const { service, databaseUrl, port } = await startApi('drain_load');
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const outcomes: Outcome[] = [];
    let signal!: () => void;
    const enoughAnswered = new Promise<void>((resolve) => (signal = resolve));
    // Each client sends until a new connection is refused. The short pauses leave connections idle
    // between requests, the state in which the old stop closed them under a request being written.
    const client = async () => {
      for (;;) {
        const outcome = await postCharge(agent, port);
        outcomes.push(outcome);
        if (outcomes.length >= 150) signal();
        if (outcome.kind !== 'answered') return;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      }
    };
    const clients = Promise.all(Array.from({ length: CONNECTIONS }, client));
    await enoughAnswered;
    const exitCode = await service.stop('SIGTERM');
    await clients;
    agent.destroy();

    expect(outcomes.filter((outcome) => outcome.kind === 'failed')).toEqual([]);
    // Every client ended on a refused connection: the listener closed, nothing left open.
    expect(outcomes.filter((outcome) => outcome.kind === 'refused')).toHaveLength(CONNECTIONS);
    const answered = outcomes.filter((outcome) => outcome.kind === 'answered');
    const accepted = answered.filter((outcome) => outcome.status === 202);
    const turnedAway = answered.filter((outcome) => outcome.status !== 202);
    expect(turnedAway.filter((outcome) => outcome.status !== 503 || outcome.code !== 'SERVICE.STOPPING')).toEqual([]);
    expect(turnedAway.filter((outcome) => outcome.connection !== 'close')).toEqual([]);
    expect(accepted.length).toBeGreaterThan(0);
    expect(exitCode).toBe(0);

    const pool = new Pool({ connectionString: databaseUrl });
    try {
      const store = new PostgresEventStore(pool);
      const typesOf = async (orderId: string) => (await store.readStream(`order-${orderId}`)).map((event) => event.type);
      for (const { orderId } of accepted) expect([orderId, (await typesOf(orderId))[0]]).toEqual([orderId, 'ChargeRequested']);
      for (const { orderId } of turnedAway) expect([orderId, await typesOf(orderId)]).toEqual([orderId, []]);
    } finally {
      await pool.end();
    }
  });

  it('answers a request written on a connection that was idle when the signal came, instead of closing it under the request', async () => {
    const { service, port } = await startApi('drain_idle');
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    // A connection the api closed under the request (the old stop) fails the write: shown, not thrown.
    socket.on('error', (error) => (received += `[${error.message}]`));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(
      async () => received,
      (text) => /^HTTP\/1\.1 200 [^]*\r\n\r\n[^]*\}$/.test(text),
      10_000,
    );
    received = '';

    const exited = service.stop('SIGTERM');
    // The listener has closed: the stop has begun, and the connection is idle at that moment.
    await waitUntil(() => refusesConnections(port), Boolean, 10_000);
    socket.write(
      `POST /v1/orders/drain-idle-${randomUUID()}/charge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-storefront\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(charge)}\r\n\r\n${charge}`,
    );
    // The answer says Connection: close, and the api then ends the connection itself.
    await closed;

    expect(received).toMatch(/^HTTP\/1\.1 503 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(received).toContain('"code":"SERVICE.STOPPING"');
    expect(await exited).toBe(0);
  });
});

/** A bare connection to the api and everything it receives; `closed` once either side has closed it. */
function openConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const connection = { socket, received: '', closed: new Promise<void>((resolve) => socket.on('close', () => resolve())) };
  socket.on('data', (chunk: Buffer) => (connection.received += chunk.toString()));
  socket.on('error', (error) => (connection.received += `[${error.message}]`));
  return connection;
}

describe('the api in this process', () => {
  let harness: TestApp;
  let port: number;
  beforeEach(async () => {
    harness = await startTestApp('drain_stop');
    ({ port } = await listenOnFreePort(harness.app));
  });
  // app.close() again after a test closed the api: Nest and Fastify find nothing left to close.
  afterEach(() => harness.close());

  it('ends the drain as soon as the last connection has closed, not at the end of the window', async () => {
    const connection = openConnection(port);
    connection.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(
      async () => connection.received,
      (text) => text.endsWith('}'),
      10_000,
    );
    connection.received = '';
    // A window far longer than this test's timeout: only the connection closing can end it.
    const stopped = stopHttpApi(harness.app, { drainMs: 600_000, forceAfterMs: 600_000 });
    await waitUntil(() => refusesConnections(port), Boolean, 10_000);
    connection.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Request-Id: drain-last\r\n\r\n');
    await connection.closed;
    await stopped;
    expect(connection.received).toMatch(/^HTTP\/1\.1 503 [^]*x-request-id: drain-last/i);
  }, 30_000);

  it('destroys a connection whose request is still unfinished at the deadline, so the stop is bounded', async () => {
    const connection = openConnection(port);
    const headersRead = new Promise((resolve) => harness.app.getHttpAdapter().getInstance().server.once('request', resolve));
    // Headers and part of the body: the request stays in flight until the rest comes, which it never does.
    connection.socket.write(
      `POST /v1/orders/drain-force-${randomUUID()}/charge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-storefront\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(charge)}\r\n\r\n${charge.slice(0, 10)}`,
    );
    await headersRead;
    // Without the deadline the stop would wait for that body forever (the test's timeout would fail it).
    await stopHttpApi(harness.app, { drainMs: 100, forceAfterMs: 500 });
    await connection.closed;
    expect(connection.received).toBe('');
  }, 30_000);

  it('answers a request pipelined behind one in flight 503 SERVICE.STOPPING when close() is called without the drain, after the one in flight', async () => {
    const orderId = `drain-pipelined-${randomUUID()}`;
    // One keep-alive connection, with a charge that waits (?waitMs, no worker here) in flight on it …
    const connection = openConnection(port);
    connection.socket.write(
      `POST /v1/orders/${orderId}/charge?waitMs=3000 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-storefront\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(charge)}\r\n\r\n${charge}`,
    );
    await waitUntil(
      async () => (await harness.runtime.eventStore.readStream(`order-${orderId}`)).length,
      (events) => events > 0,
      10_000,
    );
    // … Fastify's close() begins (the listener closes: no new connection; tests and Nest call it directly) …
    const stopped = harness.app.close();
    await waitUntil(() => refusesConnections(port), Boolean, 10_000);
    // … and a second request on that connection arrives while the api is stopping.
    connection.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Request-Id: edge-stopping\r\n\r\n');
    await connection.closed;
    await stopped;

    const [inFlight, late] = connection.received.split(/(?=HTTP\/1\.1 )/);
    expect(inFlight).toMatch(/^HTTP\/1\.1 202 /);
    // Only the last answer closes the connection: Node would drop one queued behind a `close`.
    expect(inFlight).not.toMatch(/\r\nconnection: close\r\n/i);
    expect(late).toMatch(/^HTTP\/1\.1 503 /);
    expect(late).toMatch(/content-type: application\/problem\+json/i);
    expect(late).toMatch(/x-request-id: edge-stopping/i);
    expect(late).toMatch(/retry-after: 1/i);
    expect(late).toMatch(/\r\nconnection: close\r\n/i);
    expect(late).toContain('"code":"SERVICE.STOPPING"');
  });
});
