/**
 * The database server a benchmark runs against: its own embedded PostgreSQL in a throw-away
 * directory, with the server's default durability (fsync, synchronous_commit and full_page_writes
 * stay on: benchmarks measure what production gets). BENCH_DATABASE_URL points at an existing
 * server instead (its admin database; the benchmark creates and drops its own databases there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { postmasterPid } from './proc';

export interface BenchServer {
  /** Where it runs: "embedded (<dir>)" or the given URL without its password. */
  description: string;
  /** The server's postmaster pid when we started it (for CPU accounting), else undefined. */
  postmasterPid?: number;
  urlFor(database: string): string;
  /** Drops `name` if it exists and creates it empty. */
  freshDatabase(name: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  const external = process.env.BENCH_DATABASE_URL;
  let urlFor: (database: string) => string;
  let stop: () => Promise<void>;
  let description: string;
  let pid: number | undefined;
  if (external) {
    urlFor = (database) => {
      const url = new URL(external);
      url.pathname = `/${database}`;
      return url.toString();
    };
    stop = async () => undefined;
    const shown = new URL(external);
    shown.password = '';
    description = `external server ${shown.host}`;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'idem-bench-'));
    const cluster = await startEmbeddedPostgres({ dataDir, persistent: false });
    urlFor = cluster.urlFor;
    stop = async () => {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    description = `embedded PostgreSQL in ${dataDir}`;
    pid = postmasterPid(join(dataDir, 'pg'));
  }
  const admin = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: urlFor('postgres') });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const created = new Set<string>();
  const dropDatabase = async (name: string) => {
    await admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`)));
    created.delete(name);
  };
  return {
    description,
    postmasterPid: pid,
    urlFor,
    // An embedded cluster goes away whole; on someone else's server, drop what we created.
    stop: async () => {
      if (external) for (const name of [...created]) await dropDatabase(name);
      await stop();
    },
    freshDatabase: async (name) => {
      await admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${quote(name)}`);
      });
      created.add(name);
      return urlFor(name);
    },
    dropDatabase,
  };
}
