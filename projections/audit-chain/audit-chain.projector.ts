/**
 * The `audit_chain` projector: links every event, in the global order, into its stream's hash chain
 * and the running digest, and writes a seal every `sealEvery` events (default 1,000), all in the
 * transaction that moves its checkpoint. A batch that records a seal also queues, in that transaction,
 * the job that publishes it to the `seal-ledger` stream (modules/audit/publish-seals/): a recorded seal
 * is never left unpublished, and its LedgerSealed event is then chained like any other event.
 *
 * It runs as a reactor, not a read model: reactors are never rebuilt (`idem projections rebuild`
 * knows only read models), which is what the chain needs — see audit-chain.schema.ts — and they
 * commit synchronously, so a crash never loses a committed link. It rides the worker's default lane,
 * the shared read of the contacts read models (projection-group.ts); it installs its own tables first.
 */
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { enqueueInTransaction } from '../../src/jobs/enqueue-in-transaction';
import type { Projection } from '../../src/subscriptions/projection';
import { ChainReplay, type ChainHead } from './chain-replay';
import { appendChain, readChainEnds } from './audit-chain.queries';
import { migrateAuditChain } from './audit-chain.schema';
import { PUBLISH_SEALS_JOB_KEY, PUBLISH_SEALS_TASK } from '../../modules/audit/publish-seals/publish-seals.payload';

export const AUDIT_CHAIN = 'audit_chain';
export const DEFAULT_SEAL_EVERY = 1000;

export interface ChainEntry {
  eventNumber: number;
  stream: string;
  revision: number;
  eventId: string;
  position: string;
  eventHash: string;
  chainHash: string;
}

export interface Seal {
  eventsSealed: number;
  position: string;
  digest: string;
}

export interface ChainedBatch {
  entries: ChainEntry[];
  seals: Seal[];
  head: ChainHead & { position: string | undefined };
}

/** Pure: the rows a batch adds after `head`, given each of its streams' last chain hash. */
export function chainBatch(
  head: ChainHead,
  lastChainHashes: Map<string, string>,
  events: RecordedEvent[],
  sealEvery: number,
): ChainedBatch {
  const replay = new ChainReplay(head, new Map(lastChainHashes));
  const entries: ChainEntry[] = [];
  const seals: Seal[] = [];
  for (const event of events) {
    const link = replay.link(event);
    entries.push({
      eventNumber: link.eventNumber,
      stream: event.stream,
      revision: event.revision,
      eventId: event.id,
      position: event.position,
      eventHash: link.eventHash,
      chainHash: link.chainHash,
    });
    if (link.eventNumber % sealEvery === 0) seals.push({ eventsSealed: link.eventNumber, position: event.position, digest: link.digest });
  }
  return { entries, seals, head: { ...replay.head, position: events.at(-1)?.position } };
}

/**
 * The streams whose chain hash before this batch must be read: those whose first event here is not
 * their first event ever. A stream that starts in the batch starts at the genesis hash, and an import
 * is mostly new contacts, so this spares most of the lookups.
 */
export function streamsLinkedBefore(events: RecordedEvent[]): string[] {
  const seen = new Set<string>();
  const linkedBefore: string[] = [];
  for (const event of events) {
    if (seen.has(event.stream)) continue;
    seen.add(event.stream);
    if (event.revision > 0) linkedBefore.push(event.stream);
  }
  return linkedBefore;
}

export function auditChainProjector({ sealEvery = DEFAULT_SEAL_EVERY }: { sealEvery?: number } = {}): Projection {
  // Each seal is published as an event that is chained in turn: a seal after every event would never end.
  if (!Number.isSafeInteger(sealEvery) || sealEvery < 2)
    throw new Error(`audit seals: sealEvery must be an integer of at least 2, not ${sealEvery}`);
  return {
    name: AUDIT_CHAIN,
    kind: 'reactor',
    filter: {},
    install: migrateAuditChain,
    async handle(events, { client }) {
      const { head, lastChainHashes } = await readChainEnds(client, streamsLinkedBefore(events));
      const batch = chainBatch(head, lastChainHashes, events, sealEvery);
      await appendChain(client, batch);
      if (batch.seals.length) await enqueueInTransaction(client, PUBLISH_SEALS_TASK, {}, { jobKey: PUBLISH_SEALS_JOB_KEY });
    },
  };
}
