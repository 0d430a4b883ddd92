import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from '../../src/database/create-database';

type Cluster = 'shared' | 'quarantine' | 'contract';

const ADMIN_URL: Record<Cluster, string> = {
  shared: 'IDEM_TEST_ADMIN_URL',
  quarantine: 'IDEM_TEST_QUARANTINE_ADMIN_URL',
  contract: 'IDEM_TEST_CONTRACT_ADMIN_URL',
};

/** A fresh, empty database on the run's cluster, so test files never see each other's rows. */
export async function createTestDatabase(label = 'test'): Promise<string> {
  const adminUrl = process.env.IDEM_TEST_ADMIN_URL;
  if (!adminUrl) throw new Error('IDEM_TEST_ADMIN_URL is not set: run the tests through jest (globalSetup starts PostgreSQL)');
  const name = databaseName(label);
  await ensureDatabase(adminUrl, name);
  return urlOf(adminUrl, name);
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
  const adminUrl = process.env[ADMIN_URL[cluster]];
  if (!adminUrl) throw new Error('the isolated test clusters are not running: run the tests through jest (globalSetup starts them)');
  const name = databaseName(label);
  await ensureDatabase(adminUrl, name);
  return { url: urlOf(adminUrl, name), stop: async () => undefined };
}

/** A schema a test database starts from: `prepare` migrates an empty database to it. */
export interface TestTemplate {
  /** Short, [a-z0-9_]: part of the template database's name. */
  key: string;
  /** Brings an empty database to the schema, and closes every connection it opened. */
  prepare(url: string): Promise<void>;
}

/**
 * A fresh database that already holds `template`'s schema: a copy of a template database that the
 * first caller of the run migrates once (the other jest worker waits for it), instead of running
 * the same migrations again for every file. Copying is several times faster than migrating, and the
 * copy is what the migrations make, because they made the template.
 */
export async function createPreparedTestDatabase(label: string, template: TestTemplate, cluster: Cluster = 'shared'): Promise<string> {
  const adminUrl = process.env[ADMIN_URL[cluster]];
  if (!adminUrl) throw new Error(`${ADMIN_URL[cluster]} is not set: run the tests through jest (globalSetup starts PostgreSQL)`);
  const source = await ensureTemplate(adminUrl, template);
  const name = databaseName(label);
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`));
  return urlOf(adminUrl, name);
}

/**
 * The template's database on this server, migrated under an advisory lock so two workers never
 * build it together. It is built under another name and renamed when complete, so a build that
 * failed half-way is never copied. The run id (global-setup.ts) keeps a template of an older
 * schema on a long-lived TEST_DATABASE_URL server from being used.
 */
async function ensureTemplate(adminUrl: string, template: TestTemplate): Promise<string> {
  const run = process.env.IDEM_TEST_RUN_ID;
  if (!run) throw new Error('IDEM_TEST_RUN_ID is not set: run the tests through jest (globalSetup sets it)');
  const name = `idem_template_${template.key}_${run}`;
  await withAdmin(adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
    await admin.query(`CREATE DATABASE "${building}"`);
    await template.prepare(urlOf(adminUrl, building));
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  });
  return name;
}

/** One admin connection for `work`; its session (and any advisory lock) ends with it. */
async function withAdmin<T>(adminUrl: string, work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl });
  admin.on('error', () => undefined); // a server going away fails the query; the event must not also kill the worker
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseName(label: string): string {
  return `idem_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

function urlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
