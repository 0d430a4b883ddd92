import { Client } from 'pg';

/** Creates `name` on the server behind `adminUrl` unless it exists (CREATE DATABASE has no IF NOT EXISTS). */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  // A server going away mid-way fails the query below; the client's 'error' event must not also kill the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    // Two processes racing to create the same database: the loser sees a duplicate, which is fine.
    if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}
