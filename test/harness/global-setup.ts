/**
 * One embedded PostgreSQL cluster per test run (unless TEST_DATABASE_URL points at a server).
 * Test files create their own database on it through `createTestDatabase`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.IDEM_TEST_ADMIN_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'idem-test-'));
  const cluster = await startEmbeddedPostgres({
    dataDir,
    persistent: false,
    // A throw-away cluster: durability buys nothing here and fsync dominates on small CI disks.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
  });
  process.env.IDEM_TEST_ADMIN_URL = cluster.urlFor('postgres');
  (globalThis as { __IDEM_TEST_CLUSTER__?: unknown }).__IDEM_TEST_CLUSTER__ = cluster;
}
