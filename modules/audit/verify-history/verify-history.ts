/**
 * `verify`: recomputes the hash chain from the event store and compares it with the stored chain and
 * seals — for the whole history (readAll, in the global order, side by side with the chain's entries,
 * and with the seals published in `seal-ledger`) or for one stream (readStream, side by side with its
 * entries) — then checks the metadata links of every stream it covers (check-links.ts). The chain's
 * head is read before the chain: what the projector links meanwhile is left for the next run, and
 * events past the head are counted as `unchained`, not chain-checked (their links are checked).
 */
import type { Pool } from 'pg';
import { compareCheckpoints, type Checkpoint } from '../../../src/event-store/checkpoint';
import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';
import type { ChainEntry } from '../../../projections/audit-chain/audit-chain.projector';
import {
  isChained,
  readEntries,
  readHead,
  readSeals,
  readStreamEntries,
  type StoredHead,
} from '../../../projections/audit-chain/audit-chain.queries';
import { ChainReplay } from '../../../projections/audit-chain/chain-replay';
import type { ChainBreak, VerifyReport } from './chain-break';
import { checkEntry, type BreakLookups } from './check-entry';
import { checkHistoryLinks, checkLinksOf } from './check-links';
import { HistoryPages } from './history-pages';
import { streamNotFound } from './stream-not-found';
import {
  isPublishedSeal,
  publishedSealMismatch,
  readPublishedSeals,
  sealRowGone,
  strandedPublishedSeal,
  unreadablePublishedSeal,
} from './published-seals';

export interface VerifyDeps {
  store: EventStore;
  pool: Pool;
}

const PAGE = 1000;

/**
 * Walks the whole history page by page. `signal` stops the walk between pages (a client that left,
 * Ctrl+C): it then rejects with the signal's reason and reports nothing, so no partial walk passes for ok.
 */
export async function verifyHistory({ store, pool }: VerifyDeps, signal?: AbortSignal): Promise<VerifyReport> {
  // Read before the head: every seal published by then lies within the chain read next.
  const published = await readPublishedSeals(store);
  const head = await readHead(pool);
  const seals = await readSeals(pool, head.eventsChained);
  const events = new HistoryPages(store, PAGE, signal);
  const replay = new ChainReplay();
  const lookups: BreakLookups = {
    entryEventStored: async (entry) => (await store.readStream(entry.stream)).some((event) => event.id === entry.eventId),
    eventChained: (event) => isChained(pool, event.stream, event.id),
  };
  let checked = 0;
  let sealsChecked = 0;
  let publishedChecked = 0;
  const sealEventsMet: ChainEntry[] = [];
  const failed = (firstBreak: ChainBreak): VerifyReport => ({
    ok: false,
    checked,
    sealsChecked: sealsChecked + publishedChecked,
    unchained: 0,
    digest: replay.head.digest,
    firstBreak,
  });

  while (checked < head.eventsChained) {
    signal?.throwIfAborted();
    const entries = await readEntries(pool, checked, head.eventsChained, PAGE);
    if (!entries.length || entries[0].eventNumber !== checked + 1) return failed(chainEntryGone(checked + 1));
    for (const entry of entries) {
      if (entry.eventNumber !== checked + 1) return failed(chainEntryGone(checked + 1));
      const event = await events.next();
      const check = await checkEntry(entry, event, replay, lookups);
      if (check.problem) return failed(check.problem);
      checked += 1;
      if (event && isPublishedSeal(event)) sealEventsMet.push(entry);
      const seal = seals[sealsChecked];
      const sealRowHere = seal?.eventsSealed === checked;
      if (sealRowHere) {
        if (seal.digest !== check.link.digest || seal.position !== entry.position)
          return failed(sealMismatch(entry, seal.digest, check.link.digest));
        sealsChecked += 1;
      }
      const publishedSeal = published[publishedChecked];
      if (publishedSeal?.eventsSealed === checked) {
        if (publishedSeal.digest !== check.link.digest || publishedSeal.position !== entry.position)
          return failed(publishedSealMismatch(entry, publishedSeal, check.link.digest));
        // Every published seal was published from its row: a seal without one had its row removed.
        if (!sealRowHere) return failed(sealRowGone(entry, publishedSeal));
        publishedChecked += 1;
      }
    }
  }
  if (sealsChecked < seals.length) return failed(strandedSeal(seals[sealsChecked].eventsSealed));
  if (publishedChecked < published.length) return failed(strandedPublishedSeal(published[publishedChecked]));
  const sealsGone = sealEventsMet.length > published.length ? await unreadablePublishedSeal(store, sealEventsMet) : undefined;
  if (sealsGone) return failed(sealsGone);
  if (replay.head.digest !== head.digest) return failed(headMismatch(head, replay.head.digest));
  let unchained = 0;
  while (await events.next()) unchained += 1;
  const links = await checkHistoryLinks(store, PAGE, signal);
  if (links.firstBreak) return { ...failed(links.firstBreak), unchained };
  return { ok: true, checked, sealsChecked: sealsChecked + publishedChecked, unchained, digest: head.digest };
}

export async function verifyStream({ store, pool }: VerifyDeps, stream: string): Promise<VerifyReport> {
  const head = await readHead(pool);
  const entries = await readStreamEntries(pool, stream, head.eventsChained);
  const events = await store.readStream(stream);
  if (!entries.length && !events.length) throw streamNotFound(stream);
  const replay = new ChainReplay();
  const lookups: BreakLookups = {
    entryEventStored: async (entry) => events.some((event) => event.id === entry.eventId),
    eventChained: async (event) => entries.some((entry) => entry.eventId === event.id),
  };
  let checked = 0;
  for (const [i, entry] of entries.entries()) {
    const check = await checkEntry(entry, events[i], replay, lookups);
    if (check.problem) return { ok: false, checked, sealsChecked: 0, unchained: 0, firstBreak: check.problem };
    checked += 1;
  }
  let unchained = 0;
  for (const event of events.slice(entries.length)) {
    if (!isPastHead(event, head)) return { ok: false, checked, sealsChecked: 0, unchained, firstBreak: extraBeforeHead(event) };
    unchained += 1;
  }
  const links = checkLinksOf(stream, events);
  if (links.firstBreak) return { ok: false, checked, sealsChecked: 0, unchained, firstBreak: links.firstBreak };
  return { ok: true, checked, sealsChecked: 0, unchained };
}

const isPastHead = (event: RecordedEvent, head: StoredHead) =>
  head.position === undefined || compareCheckpoints(event.position, head.position as Checkpoint) > 0;

function extraBeforeHead(event: RecordedEvent): ChainBreak {
  const detail = `event ${event.id} was never chained, yet sits before the chain's end`;
  return { stream: event.stream, revision: event.revision, position: event.position, kind: 'extra', expected: null, actual: null, detail };
}

function chainEntryGone(eventNumber: number): ChainBreak {
  const detail = `chain entry ${eventNumber} is gone: the chain table was edited`;
  return { stream: null, revision: null, position: null, kind: 'missing', expected: null, actual: null, detail };
}

function strandedSeal(eventsSealed: number): ChainBreak {
  const detail = `the seal after event ${eventsSealed} falls on no chained event: the seals were edited`;
  return { stream: null, revision: null, position: null, kind: 'seal_mismatch', expected: null, actual: null, detail };
}

function sealMismatch(entry: ChainEntry, expected: string, actual: string): ChainBreak {
  const detail = `the seal after event ${entry.eventNumber} does not match the digest of the history up to it`;
  return { stream: entry.stream, revision: entry.revision, position: entry.position, kind: 'seal_mismatch', expected, actual, detail };
}

function headMismatch(head: StoredHead, actual: string): ChainBreak {
  const detail = `the chain head's digest after ${head.eventsChained} events does not match the history`;
  return { stream: null, revision: null, position: head.position ?? null, kind: 'seal_mismatch', expected: head.digest, actual, detail };
}
