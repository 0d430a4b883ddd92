/**
 * Reads and writes of the audit tables (audit-chain.schema.ts), for the projector and the auditors'
 * routes and commands.
 */
import type { Queryable } from '../../src/subscriptions/checkpoint-store';
import type { ChainHead } from './chain-replay';
import type { ChainedBatch, ChainEntry, Seal } from './audit-chain.projector';

export interface StoredHead extends ChainHead {
  /** Position of the last chained event; undefined while nothing is chained. */
  position: string | undefined;
}

const ENTRY_COLUMNS = `event_number AS "eventNumber", stream, revision, event_id AS "eventId", position,
  event_hash AS "eventHash", chain_hash AS "chainHash"`;

export async function readHead(db: Queryable): Promise<StoredHead> {
  const { rows } = await db.query(`SELECT events_chained, digest, position FROM audit_chain_head WHERE id = 1`);
  return { eventsChained: Number(rows[0].events_chained), digest: rows[0].digest as string, position: rows[0].position ?? undefined };
}

/** The head, and the last chain hash of each of `streams` that has one. */
export async function readChainEnds(db: Queryable, streams: string[]): Promise<{ head: StoredHead; lastChainHashes: Map<string, string> }> {
  const head = await readHead(db);
  if (!streams.length) return { head, lastChainHashes: new Map() };
  const { rows } = await db.query(
    `SELECT DISTINCT ON (stream) stream, chain_hash FROM audit_chain WHERE stream = ANY($1::text[]) ORDER BY stream, revision DESC`,
    [streams],
  );
  return { head, lastChainHashes: new Map(rows.map((row) => [row.stream as string, row.chain_hash as string])) };
}

/** Inserts the batch's entries and seals and moves the head, in one statement. */
export async function appendChain(db: Queryable, { entries, seals, head }: ChainedBatch): Promise<void> {
  const column = <K extends keyof ChainEntry>(key: K) => entries.map((entry) => entry[key]);
  const sealColumn = <K extends keyof Seal>(key: K) => seals.map((seal) => seal[key]);
  await db.query(
    `WITH entries AS (
       INSERT INTO audit_chain (event_number, stream, revision, event_id, position, event_hash, chain_hash)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
     ), seals AS (
       INSERT INTO audit_seals (events_sealed, position, digest) SELECT * FROM unnest($8::bigint[], $9::text[], $10::text[])
     )
     UPDATE audit_chain_head SET events_chained = $11, digest = $12, position = COALESCE($13, position) WHERE id = 1`,
    [
      column('eventNumber'),
      column('stream'),
      column('revision'),
      column('eventId'),
      column('position'),
      column('eventHash'),
      column('chainHash'),
      sealColumn('eventsSealed'),
      sealColumn('position'),
      sealColumn('digest'),
      head.eventsChained,
      head.digest,
      head.position ?? null,
    ],
  );
}

/** Entries after `afterEventNumber`, up to `upTo`, in the global order. */
export async function readEntries(db: Queryable, afterEventNumber: number, upTo: number, limit: number): Promise<ChainEntry[]> {
  const { rows } = await db.query(
    `SELECT ${ENTRY_COLUMNS} FROM audit_chain WHERE event_number > $1 AND event_number <= $2 ORDER BY event_number LIMIT $3`,
    [afterEventNumber, upTo, limit],
  );
  return rows.map(toEntry);
}

/** One stream's entries among the first `upTo`, by revision. */
export async function readStreamEntries(db: Queryable, stream: string, upTo: number): Promise<ChainEntry[]> {
  const { rows } = await db.query(`SELECT ${ENTRY_COLUMNS} FROM audit_chain WHERE stream = $1 AND event_number <= $2 ORDER BY revision`, [
    stream,
    upTo,
  ]);
  return rows.map(toEntry);
}

/** Whether the chain holds the event `eventId` in `stream` (at any revision). */
export async function isChained(db: Queryable, stream: string, eventId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM audit_chain WHERE stream = $1 AND event_id = $2 LIMIT 1`, [stream, eventId]);
  return rows.length > 0;
}

/** The chain hashes of events by (stream, revision), for serving history pages. */
export async function readChainHashes(db: Queryable, keys: Array<{ stream: string; revision: number }>): Promise<Map<string, ChainEntry>> {
  const { rows } = await db.query(
    `SELECT ${ENTRY_COLUMNS} FROM audit_chain c JOIN unnest($1::text[], $2::bigint[]) AS k(stream, revision) USING (stream, revision)`,
    [keys.map((key) => key.stream), keys.map((key) => key.revision)],
  );
  return new Map(rows.map((row) => [entryKey(row.stream, Number(row.revision)), toEntry(row)]));
}

export const entryKey = (stream: string, revision: number) => `${revision}:${stream}`;

export async function readSeals(db: Queryable, upTo: number): Promise<Seal[]> {
  const { rows } = await db.query(
    `SELECT events_sealed, position, digest FROM audit_seals WHERE events_sealed <= $1 ORDER BY events_sealed`,
    [upTo],
  );
  return rows.map(toSeal);
}

/** Up to `limit` seals after the one that sealed `afterEventsSealed` events, in order: what is left to publish. */
export async function readSealsAfter(db: Queryable, afterEventsSealed: number, limit: number): Promise<Seal[]> {
  const { rows } = await db.query(
    `SELECT events_sealed, position, digest FROM audit_seals WHERE events_sealed > $1 ORDER BY events_sealed LIMIT $2`,
    [afterEventsSealed, limit],
  );
  return rows.map(toSeal);
}

const toSeal = (row: Record<string, unknown>): Seal => ({
  eventsSealed: Number(row.events_sealed),
  position: row.position as string,
  digest: row.digest as string,
});

function toEntry(row: Record<string, unknown>): ChainEntry {
  return {
    eventNumber: Number(row.eventNumber),
    stream: row.stream as string,
    revision: Number(row.revision),
    eventId: row.eventId as string,
    position: row.position as string,
    eventHash: row.eventHash as string,
    chainHash: row.chainHash as string,
  };
}
