/**
 * `npm start` on a port another program holds: the service says so and what to set, before it starts
 * anything (no embedded PostgreSQL, no worker taking jobs it would then abandon).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServiceToExit } from '../../test/harness/service-process';

describe('npm start when the api port is taken', () => {
  let taken: Server;
  let port: number;
  const parent = mkdtempSync(join(tmpdir(), 'idem-port-taken-'));
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen({ port: 0, host: '127.0.0.1' }, resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(parent, { recursive: true, force: true });
  });

  it('stops with exit code 1, names the address and PORT, and starts nothing first', async () => {
    const dataDir = join(parent, 'data');
    const { code, output } = await runServiceToExit({ PORT: String(port), HOST: '127.0.0.1', IDEM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

    expect(code).toBe(1);
    expect(output).toContain(`Idem failed to start: 127.0.0.1:${port} is already in use`);
    expect(output).toContain('set PORT (and HOST) to a free address');
    expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  });
});
