import { randomBytes } from 'node:crypto';
import { ensureDatabase } from '../../src/database/create-database';

/** A fresh, empty database on the run's cluster, so test files never see each other's rows. */
export async function createTestDatabase(label = 'test'): Promise<string> {
  const adminUrl = process.env.IDEM_TEST_ADMIN_URL;
  if (!adminUrl) throw new Error('IDEM_TEST_ADMIN_URL is not set: run the tests through jest (globalSetup starts PostgreSQL)');
  const name = `idem_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database on one of the run's other clusters (see global-setup.ts): `quarantine` for files that
 * hold transactions open on purpose, `contract` for the event-store contract suite. With
 * TEST_DATABASE_URL there is only one server and every file gets a database on it.
 */
export async function createIsolatedTestDatabase(
  label: string,
  cluster: 'quarantine' | 'contract' = 'quarantine',
): Promise<{ url: string; stop(): Promise<void> }> {
  const adminUrl = process.env[cluster === 'contract' ? 'IDEM_TEST_CONTRACT_ADMIN_URL' : 'IDEM_TEST_QUARANTINE_ADMIN_URL'];
  if (!adminUrl) throw new Error('the isolated test clusters are not running: run the tests through jest (globalSetup starts them)');
  const name = `idem_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), stop: async () => undefined };
}
