/**
 * Diagnostic for bench:append (not a benchmark): the server CPU of one append statement, free of
 * the machine's noise. One connection runs N appends back to back with `synchronous_commit = off`
 * (no fsync wait) and the CPU time of its backend process is read from /proc before and after; the
 * same for the raw ceiling's INSERT, with the WAL each append writes. Variants of Idem's table are set with STATEMENT_VARIANTS
 * (comma-separated, see VARIANTS below) to see what each part of the row and its indexes costs.
 *
 *   node -r ./bench/lib/register.js bench/append/statement-cpu.ts
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { startBenchServer } from '../lib/postgres';
import { numberFromEnv } from '../lib/env';
import { benchEvent } from './workload';

const TICKS_PER_SECOND = 100;

function backendCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

type Variant = { setup: string[]; appendAt: string; appendNew: string };

const IDEM_TABLE = `CREATE TABLE e (
  stream_name text COLLATE "C" NOT NULL, revision bigint NOT NULL, event_id uuid NOT NULL, event_type text NOT NULL,
  data jsonb NOT NULL, metadata jsonb NOT NULL, transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  sequence bigint NOT NULL DEFAULT nextval('s'), created timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (stream_name, revision))`;
// As the store's single-event append (src/event-store/postgres/append-statements.ts).
const RETURNING = `RETURNING transaction_id::text || '/' || sequence::text AS position`;
const AT = (returning: string) => `INSERT INTO e (stream_name, revision, event_id, event_type, data, metadata)
  SELECT $1, $6::bigint + 1, $2, $3, $4, $5 WHERE EXISTS (SELECT FROM e WHERE stream_name = $1 AND revision = $6::bigint) ${returning}`;
const NEW = (returning: string) =>
  `INSERT INTO e (stream_name, revision, event_id, event_type, data, metadata) VALUES ($1, 0, $2, $3, $4, $5) ${returning}`;
const BASE = [
  'CREATE SEQUENCE s AS bigint CACHE 100',
  IDEM_TABLE,
  'CREATE UNIQUE INDEX ON e (event_id)',
  'CREATE UNIQUE INDEX ON e (transaction_id, sequence)',
];

const VARIANTS: Record<string, Variant> = {
  idem: { setup: BASE, appendAt: AT(RETURNING), appendNew: NEW(RETURNING) },
  'no-returning': { setup: BASE, appendAt: AT(''), appendNew: NEW('') },
  'select-from': {
    setup: BASE,
    appendAt: `INSERT INTO e (stream_name, revision, event_id, event_type, data, metadata)
  SELECT $1, $6::bigint + 1, $2, $3, $4, $5 FROM e WHERE stream_name = $1 AND revision = $6::bigint ${RETURNING}`,
    appendNew: NEW(RETURNING),
  },
  'no-probe': { setup: BASE, appendAt: NEW(RETURNING).replace('VALUES ($1, 0,', 'VALUES ($1, $6::bigint + 1,'), appendNew: NEW(RETURNING) },
  'no-id-index': { setup: BASE.filter((s) => !s.includes('(event_id)')), appendAt: AT(RETURNING), appendNew: NEW(RETURNING) },
  'no-order-index': {
    setup: BASE.filter((s) => !s.includes('transaction_id, sequence')),
    appendAt: AT(RETURNING),
    appendNew: NEW(RETURNING),
  },
  'order-non-unique': {
    setup: BASE.map((s) => s.replace('CREATE UNIQUE INDEX ON e (transaction_id', 'CREATE INDEX ON e (transaction_id')),
    appendAt: AT(RETURNING),
    appendNew: NEW(RETURNING),
  },
  raw: {
    setup: [
      'CREATE TABLE e (event_id uuid PRIMARY KEY, stream_name text NOT NULL, event_type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL)',
    ],
    appendAt: 'INSERT INTO e (event_id, stream_name, event_type, data, metadata) VALUES ($2, $1, $3, $4, $5) ON CONFLICT DO NOTHING',
    appendNew: 'INSERT INTO e (event_id, stream_name, event_type, data, metadata) VALUES ($2, $1, $3, $4, $5) ON CONFLICT DO NOTHING',
  },
};

async function measure(
  url: string,
  name: string,
  variant: Variant,
  appends: number,
  eventsPerStream: number,
): Promise<{ cpuUs: number; walBytes: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS e; DROP SEQUENCE IF EXISTS s');
    for (const statement of variant.setup) await client.query(statement);
    await client.query('SET synchronous_commit = off');
    const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const run = async (count: number, offset: number) => {
      for (let i = 0; i < count; i++) {
        const n = offset + i;
        const stream = `order-${name}-${Math.floor(n / eventsPerStream)}`;
        const revision = n % eventsPerStream;
        const event = benchEvent(stream);
        const values = [stream, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)];
        await client.query(
          revision === 0
            ? { name: `${name}-new`, text: variant.appendNew, values: variant.appendNew.includes('$6') ? [...values, -1] : values }
            : { name: `${name}-at`, text: variant.appendAt, values: variant.appendAt.includes('$6') ? [...values, revision - 1] : values },
        );
      }
    };
    await run(2000, 0); // warm-up: plans cached, pages in memory
    const lsn = async () => (await client.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn as string;
    const walBefore = await lsn();
    const before = backendCpuSeconds(pid);
    await run(appends, 2000);
    const cpuUs = ((backendCpuSeconds(pid) - before) / appends) * 1e6;
    const walAfter = await lsn();
    const walBytes = Number((await client.query('SELECT pg_wal_lsn_diff($1, $2) AS bytes', [walAfter, walBefore])).rows[0].bytes) / appends;
    return { cpuUs, walBytes };
  } finally {
    await client.end();
  }
}

async function main() {
  const appends = numberFromEnv('STATEMENT_APPENDS', 20_000, 1000);
  const rounds = numberFromEnv('STATEMENT_ROUNDS', 3, 1);
  const names = (process.env.STATEMENT_VARIANTS ?? 'idem,raw').split(',');
  const server = await startBenchServer();
  try {
    const url = await server.freshDatabase('statement_cpu');
    const results: Record<string, Array<{ cpuUs: number; walBytes: number }>> = {};
    for (let round = 0; round < rounds; round++) {
      for (const name of names) {
        (results[name] ??= []).push(await measure(url, name, VARIANTS[name], appends, 10));
      }
    }
    for (const [name, runs] of Object.entries(results)) {
      const values = runs.map((r) => r.cpuUs);
      const sorted = [...values].sort((a, b) => a - b);
      const wal = Math.round(runs.reduce((sum, r) => sum + r.walBytes, 0) / runs.length);
      console.log(
        `${name.padEnd(18)} server CPU per append: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} µs (${values.map((v) => v.toFixed(1)).join(', ')}); WAL ${wal} bytes per append`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
