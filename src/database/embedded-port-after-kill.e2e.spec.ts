/**
 * An api killed with SIGKILL and started again on the same IDEM_DATA_DIR brings its embedded
 * PostgreSQL back on the port it had, so the workers and `idem` commands given its DATABASE_URL
 * reconnect by themselves. It used to come back on a fresh port (33259 became 36905), and workers
 * started with the old DATABASE_URL retried a dead address until they were restarted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startService, type ServiceProcess } from '../../test/harness/service-process';

jest.setTimeout(180_000);

const pidFile = (dataDir: string) => join(dataDir, 'pg', 'postmaster.pid');
const postmasterOf = (dataDir: string) => Number(readFileSync(pidFile(dataDir), 'utf8').split('\n')[0]);
const databaseUrlOf = (service: ServiceProcess) => /idem beside it: DATABASE_URL=(\S+)/.exec(service.output())![1];
/** Linux, as on these machines and in CI: a process that ended and was reaped is gone from /proc. */
const isRunning = (pid: number) => existsSync(`/proc/${pid}`);

describe('the embedded PostgreSQL of an api killed with SIGKILL', () => {
  let dataDir: string;
  let services: ServiceProcess[] = [];
  let blocker: Server | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'idem-e2e-pg-port-'));
  });
  afterEach(async () => {
    for (const service of services) if (service.child.exitCode === null && service.child.signalCode === null) await service.stop('SIGTERM');
    services = [];
    blocker?.close();
    blocker = undefined;
    // A server orphaned by a failed test: fast shutdown, as the next start would do.
    if (existsSync(pidFile(dataDir)) && isRunning(postmasterOf(dataDir))) process.kill(postmasterOf(dataDir), 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const service = await startService({ IDEM_DATA_DIR: dataDir, IDEM_SANDBOX_PORT: '0', LOG_LEVEL: 'info' });
    services.push(service);
    return service;
  };

  it('comes back on the same port when the api starts again, and the old DATABASE_URL works again', async () => {
    const first = await start();
    const databaseUrl = databaseUrlOf(first);
    const orphan = postmasterOf(dataDir);
    await first.stop('SIGKILL');
    // The server outlives the api, holding the data directory and the port until the next start stops it.
    expect(isRunning(orphan)).toBe(true);

    const second = await start();
    expect(isRunning(orphan)).toBe(false);
    expect(postmasterOf(dataDir)).not.toBe(orphan);
    expect(second.databasePort).toBe(first.databasePort);
    expect(databaseUrlOf(second)).toBe(databaseUrl);
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('comes back on another port, remembered for the next start, when its port has been taken meanwhile', async () => {
    const first = await start();
    expect(await first.stop('SIGTERM')).toBe(0);
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(first.databasePort, '127.0.0.1', resolve));

    const second = await start();
    expect(second.databasePort).not.toBe(first.databasePort);
    expect(await second.stop('SIGTERM')).toBe(0);
    blocker.close();

    const third = await start();
    expect(third.databasePort).toBe(second.databasePort);
  });
});
