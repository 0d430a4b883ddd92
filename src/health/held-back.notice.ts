/**
 * What readiness says of events held back by a transaction in flight (src/event-store/held-back.ts):
 * past HELD_BACK_NOTICE_SECONDS its body names the hold, and the status stays what the checks make it.
 *
 * Not a check that can go down, on purpose. The hold is the PostgreSQL cluster's, not this process's:
 * every api instance sees the same one, so a load balancer acting on it would take all of them out of
 * rotation at once, and the shop could no longer record a charge, while taking traffic elsewhere cannot
 * end the transaction. Meanwhile a charge accepted is recorded, and charged once the hold ends. A person
 * ends it (README, Operations: "A transaction left open"): /metrics' idem_event_store_held_back_seconds
 * is what to alert on, and this is what whoever looks at /health/ready during the incident reads.
 */
import type { EventStore } from '../event-store/event-store.port';
import { noticeableHold } from '../event-store/held-back';
import { answerWithin } from './answer-within';

export interface HeldBackNotice {
  /** When the oldest held-back event was written (ISO 8601). */
  since: string;
  /** How long ago, in seconds (one decimal). */
  seconds: number;
  message: string;
}

/** The hold to name in the body, if one lasts; nothing when none does or it cannot be read in time (the other checks say why). */
export async function heldBackNotice(store: Pick<EventStore, 'heldBackSince'>, timeoutMs = 2000): Promise<HeldBackNotice | undefined> {
  const held = await answerWithin(noticeableHold(store), timeoutMs).catch(() => undefined);
  if (!held) return undefined;
  const seconds = Math.round(held.seconds * 10) / 10;
  return {
    since: held.since.toISOString(),
    seconds,
    message:
      `events written ${seconds.toFixed(1)} s ago wait for a transaction still in flight in the PostgreSQL cluster: no projection or ` +
      'reactor (charge jobs included) reads past them until it ends. Every instance waits for the same transaction, so this one stays ' +
      'ready; end the transaction (README, Operations: "A transaction left open")',
  };
}
