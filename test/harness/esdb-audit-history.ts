/**
 * The audit chain over the EventStoreDB adapter (its protocol emulator): the events in the emulator,
 * the chain's tables and checkpoint in PostgreSQL, and a second, plain client for what Idem never does
 * itself — deleting a stream (soft) or tombstoning it (hard) — as an operator of the server could.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import type { Pool } from 'pg';
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import { EsdbEventStore } from '../../src/event-store/esdb/esdb.event-store';
import { startEsdbEmulator, type EsdbEmulator } from '../esdb-emulator';
import { createProjectionDatabase, type ProjectionDatabase } from '../projections/projection-harness';
import { linkChain } from './audit-history';

export interface EsdbAuditHistory {
  store: EsdbEventStore;
  pool: Pool;
  /** What verify and publishSeals take. */
  deps: { store: EsdbEventStore; pool: Pool; workerId: string };
  /** Runs the audit_chain projector until it has linked everything stored. */
  linkChain(): Promise<void>;
  /** The server's soft delete: reads answer "not found", `$all` keeps the events until a scavenge. */
  softDelete(stream: string): Promise<void>;
  /** The server's hard delete: every later read and write of the stream is refused, for good. */
  tombstone(stream: string): Promise<void>;
  close(): Promise<void>;
}

export async function startEsdbAuditHistory(label: string, sealEvery: number): Promise<EsdbAuditHistory> {
  let emulator: EsdbEmulator | undefined;
  let db: ProjectionDatabase | undefined;
  let operator: EventStoreDBClient | undefined;
  let store: EsdbEventStore | undefined;
  const close = async () => {
    await store?.close();
    await operator?.dispose();
    await emulator?.close();
    await db?.close();
  };
  try {
    emulator = await startEsdbEmulator();
    operator = EventStoreDBClient.connectionString(emulator.connectionString);
    store = EsdbEventStore.connect(emulator.connectionString);
    db = await createProjectionDatabase(label);
    await migrateAuditChain(db.pool);
  } catch (error) {
    await close();
    throw error;
  }
  const { pool } = db;
  const events = store;
  const client = operator;
  return {
    store: events,
    pool,
    deps: { store: events, pool, workerId: 'spec' },
    linkChain: () => linkChain({ store: events, pool }, sealEvery),
    softDelete: async (stream) => void (await client.deleteStream(stream)),
    tombstone: async (stream) => void (await client.tombstoneStream(stream)),
    close,
  };
}
