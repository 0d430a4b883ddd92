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
