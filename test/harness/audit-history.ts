/**
 * The audit specs' common ground: events appended as Idem appends them (linked, through appendLinked),
 * the audit_chain projector run until it has linked everything, tampering straight in PostgreSQL as
 * someone with access to the database would, and `idem …` run in-process.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Pool } from 'pg';
import { AUDIT_CHAIN, auditChainProjector } from '../../projections/audit-chain/audit-chain.projector';
import { GENESIS_HASH } from '../../projections/audit-chain/chain-hash';
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import { runCli } from '../../src/cli';
import { appendLinked } from '../../src/command-handling/append-linked';
import { loadConfig } from '../../src/config/config';
import { compareCheckpoints } from '../../src/event-store/checkpoint';
import type { EventMetadata, EventStore } from '../../src/event-store/event-store.port';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitFor, waitUntilCaughtUp, type ProjectionDatabase } from '../projections/projection-harness';
import type { BreakKind } from '../../modules/audit/verify-history/chain-break';

/** The history's streams and their appends, in the order they are made: 11 events. */
export const APPENDS: Array<[stream: string, count: number]> = [
  ['order-a', 1],
  ['order-b', 2],
  ['order-a', 1],
  ['contact-crm.1', 1],
  ['order-b', 1],
  ['order-a', 2],
  ['contact-crm.1', 2],
  ['order-b', 1],
];
export const EVENT_COUNT = APPENDS.reduce((sum, [, count]) => sum + count, 0);

/** The fixture's database with its history chained (the projector stopped again). */
export async function chainedHistory(label: string, sealEvery: number): Promise<ProjectionDatabase> {
  const db = await createProjectionDatabase(label);
  try {
    await migrateAuditChain(db.pool);
    for (const [stream, count] of APPENDS) await appendEvents(db.store, stream, count);
    await linkChain(db, sealEvery);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

export const firstBreak = (kind: BreakKind, stream: string, revision: number) => ({
  ok: false,
  firstBreak: expect.objectContaining({ kind, stream, revision }) as unknown,
});

export const metadata: EventMetadata = {
  correlationId: 'audit-spec',
  causationId: 'audit-spec',
  actor: { role: 'test', tokenId: 'audit-spec' },
  recordedAt: '2026-12-01T00:00:00.000Z',
};

/** `count` events appended to `stream`, linked to its last event, and settled (see `settled`). */
export async function appendEvents(store: EventStore, stream: string, count: number): Promise<void> {
  const events = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    type: 'Happened',
    data: { n: i, note: `${stream} #${i}` },
    metadata,
  }));
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  await appendLinked(store, stream, events, last?.revision ?? 'no_stream', last);
  await settled(store, stream);
}

/**
 * Until `readAll` reaches the last event of `stream`. It shows only settled history, and on the
 * quarantine cluster another test file's open transaction can hold a fresh append back: a projector
 * would look caught up, and `verify` would not see the event yet.
 */
export async function settled(store: EventStore, stream: string): Promise<void> {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  if (!last) return;
  await waitFor(`${stream}@${last.revision} to settle`, async () => {
    const [newest] = await store.readAll({ direction: 'backwards', maxCount: 1 });
    return newest !== undefined && compareCheckpoints(newest.position, last.position) >= 0;
  });
}

/** Runs the audit_chain projector until it has linked everything stored. */
export async function linkChain(db: { store: EventStore; pool: Pool }, sealEvery: number): Promise<void> {
  const projector = auditChainProjector({ sealEvery });
  const running = await startProjections({ store: db.store, pool: db.pool, readModels: [], reactors: [projector] });
  try {
    await waitUntilCaughtUp(db.store, db.pool, [projector]);
  } finally {
    await running.stop();
  }
}

/** Tampering with the PostgreSQL event store's rows directly. */
export const tamper = {
  /** Drops the link from an event's metadata. */
  stripLink: (db: ProjectionDatabase, stream: string, revision: number) =>
    db.pool.query(
      `UPDATE idem_events SET metadata = (metadata::jsonb - 'previousEventHash')::json WHERE stream_name = $1 AND revision = $2`,
      [stream, revision],
    ),
  /**
   * The database owner's rewrite of the chain after editing events: the triggers off, every chain row,
   * seal and the head dropped, and the projector run again from the start over the history as it is now,
   * so the chain tables agree with the edit.
   */
  rechain: async (db: ProjectionDatabase, sealEvery: number) => {
    await db.pool.query(
      `ALTER TABLE audit_chain DISABLE TRIGGER USER;
       ALTER TABLE audit_seals DISABLE TRIGGER USER;
       TRUNCATE audit_chain, audit_seals;
       UPDATE audit_chain_head SET events_chained = 0, digest = ${lit(GENESIS_HASH)}, position = NULL;
       UPDATE projection_checkpoints SET checkpoint = NULL WHERE name = ${lit(AUDIT_CHAIN)}`,
    );
    await linkChain(db, sealEvery);
  },
  rewriteData: (db: ProjectionDatabase, stream: string, revision: number) =>
    db.pool.query(
      `UPDATE idem_events SET data = jsonb_set(data::jsonb, '{note}', '"changed"')::json WHERE stream_name = $1 AND revision = $2`,
      [stream, revision],
    ),
  deleteEvent: (db: ProjectionDatabase, stream: string, revision: number) =>
    db.pool.query(`DELETE FROM idem_events WHERE stream_name = $1 AND revision = $2`, [stream, revision]),
  deleteStream: (db: ProjectionDatabase, stream: string) => db.pool.query(`DELETE FROM idem_events WHERE stream_name = $1`, [stream]),
  /** Swaps the revision numbers of two events of a stream (their places in the global order stay). */
  swapRevisions: (db: ProjectionDatabase, stream: string, first: number, second: number) =>
    db.pool.query(
      `BEGIN;
       UPDATE idem_events SET revision = -1 WHERE stream_name = ${lit(stream)} AND revision = ${first};
       UPDATE idem_events SET revision = ${first} WHERE stream_name = ${lit(stream)} AND revision = ${second};
       UPDATE idem_events SET revision = ${second} WHERE stream_name = ${lit(stream)} AND revision = -1;
       COMMIT`,
    ),
  /** A new event placed at the very start of the global order, before everything chained. */
  forgeEventBeforeAll: (db: ProjectionDatabase, stream: string) =>
    db.pool.query(
      `INSERT INTO idem_events (stream_name, revision, event_id, event_type, data, metadata, transaction_id, sequence)
       SELECT $1, 0, $2, 'Happened', '{}', $3, transaction_id, 0 FROM idem_events ORDER BY transaction_id, sequence LIMIT 1`,
      [stream, randomUUID(), metadata],
    ),
};

const lit = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** `idem …` against the database; stdout, stderr and the exit code. */
export async function idem(db: ProjectionDatabase, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  stdout.on('data', (chunk: Buffer) => chunks.out.push(chunk));
  stderr.on('data', (chunk: Buffer) => chunks.err.push(chunk));
  const code = await runCli(args, {
    readModels: [],
    reactors: [],
    config: () => loadConfig({ DATABASE_URL: db.url }),
    runtime: async () => ({ pool: db.pool, store: db.store, databaseUrl: db.url }),
    stdout,
    stderr,
    exitCode: 0,
  });
  return { code, out: Buffer.concat(chunks.out).toString(), err: Buffer.concat(chunks.err).toString() };
}
