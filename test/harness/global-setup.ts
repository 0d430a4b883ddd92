/**
 * One embedded PostgreSQL cluster per test run (unless TEST_DATABASE_URL points at a server).
 * Test files create their own database on it through `createTestDatabase`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

/**
 * Three clusters, because the event store's settled-read rule waits for the oldest transaction in
 * flight anywhere in a cluster: `shared` for ordinary test files, `quarantine` for files that hold
 * transactions open on purpose (late commits, rebuild batches, killed runners), and `contract` for
 * the event-store contract suite, which asserts exact readAll results right after writing.
 */
const CLUSTERS = {
  shared: 'IDEM_TEST_ADMIN_URL',
  quarantine: 'IDEM_TEST_QUARANTINE_ADMIN_URL',
  contract: 'IDEM_TEST_CONTRACT_ADMIN_URL',
} as const;

export default async function globalSetup(): Promise<void> {
  // Names this run's template databases (test-database.ts), so a long-lived server never offers a stale one.
  process.env.IDEM_TEST_RUN_ID = randomBytes(4).toString('hex');
  if (process.env.TEST_DATABASE_URL) {
    for (const variable of Object.values(CLUSTERS)) process.env[variable] = process.env.TEST_DATABASE_URL;
    return;
  }
  const clusters = await Promise.all(
    Object.entries(CLUSTERS).map(async ([name, variable]) => {
      const cluster = await startEmbeddedPostgres({
        dataDir: mkdtempSync(join(tmpdir(), `idem-test-${name}-`)),
        persistent: false,
        // Throw-away clusters: durability buys nothing here and fsync dominates on small CI disks
        // (initdb alone syncs some 40 MB of new files to disk for each cluster).
        initdbFlags: ['--no-sync'],
        settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
      });
      process.env[variable] = cluster.urlFor('postgres');
      return cluster;
    }),
  );
  (globalThis as { __IDEM_TEST_CLUSTERS__?: unknown }).__IDEM_TEST_CLUSTERS__ = clusters;
}
