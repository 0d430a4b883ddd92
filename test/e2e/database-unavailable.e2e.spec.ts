/**
 * The real service with its PostgreSQL cut off (a TCP proxy in front of the database that the test
 * closes: new connections refused, open ones reset, as when the server stops or the network goes), then
 * restored. While it is cut off the api answers 503 `STORE.UNAVAILABLE` with Retry-After, not a bare
 * 500, and stays up; once it is back, the same request, sent again with its Idempotency-Key, charges
 * the order, once at the provider (DESIGN §9, invariants 1 and 7).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { createTestDatabase } from '../harness/test-database';
import { startService, type ServiceProcess } from '../harness/service-process';
import { waitUntil } from '../harness/wait-until';

/** A TCP proxy to `target` on a port of its own, which can be cut off and restored on that port. */
class CuttableProxy {
  private server?: Server;
  private readonly open = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('close', () => this.open.delete(socket));
        socket.on('error', () => (socket === client ? upstream : client).destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and resets the open ones. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const socket of this.open) socket.resetAndDestroy();
    await closed;
  }
}

jest.setTimeout(180_000);
describe('the service while its PostgreSQL cannot be reached', () => {
  let proxy: CuttableProxy;
  let service: ServiceProcess;
  let databaseUrl: URL;
  beforeAll(async () => {
    databaseUrl = new URL(await createTestDatabase('database_unavailable'));
    proxy = new CuttableProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    await proxy.listen();
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    service = await startService({ DATABASE_URL: proxied.toString(), IDEM_SANDBOX_PORT: '0' });
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
    await proxy?.cut().catch(() => undefined);
  });

  const charge = (orderId: string, key: string, query = '') =>
    fetch(`${service.apiUrl}/v1/orders/${orderId}/charge${query}`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-storefront', 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ amount: 2500, currency: 'EUR', customerId: 'cus_cutoff' }),
    });

  it('answers 503 with Retry-After while cut off, stays up, and charges once when the database is back', async () => {
    const customer = await fetch(`${service.sandboxUrl}/_sandbox/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'cus_cutoff' }),
    });
    expect(customer.status).toBe(201);
    expect((await charge('cutoff-before', 'k-before')).status).toBe(202);

    await proxy.cut();
    const refused = await charge('cutoff-during', 'k-during');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ status: 503, code: 'STORE.UNAVAILABLE', retryAfterSeconds: 5 });
    const read = await fetch(`${service.apiUrl}/v1/orders/cutoff-before`, { headers: { authorization: 'Bearer dev-storefront' } });
    expect(read.status).toBe(503);
    expect(await read.json()).toMatchObject({ code: 'STORE.UNAVAILABLE' });
    expect(service.child.exitCode).toBeNull();

    await proxy.listen();
    const paid = await waitUntil(
      async () => {
        const answer = await charge('cutoff-during', 'k-during', '?waitMs=2000');
        return { status: answer.status, body: (await answer.json()) as { status?: string } };
      },
      (answer) => answer.status === 200 && answer.body.status === 'paid',
      60_000,
    );
    expect(paid.body).toMatchObject({ orderId: 'cutoff-during', status: 'paid', amount: 2500 });
    const provider = (await (await fetch(`${service.sandboxUrl}/_sandbox/charges?orderId=cutoff-during`)).json()) as {
      data: Array<{ status: string }>;
    };
    expect(provider.data.map((intent) => intent.status)).toEqual(['succeeded']);
    expect(service.child.exitCode).toBeNull();
  });
});
