/**
 * A hold worth telling an operator about: events written this long ago (EventStore.heldBackSince) still
 * wait for a transaction in flight somewhere in the PostgreSQL cluster, so every projection and reactor
 * (charge jobs, alerts) waits with them while their lag, which counts what they could read, may say 0.
 * Shorter holds are the ordinary moment between a write and the commits before it. `idem projections
 * status` prints it under its table, `/health/ready` names it in its body.
 */
import type { EventStore } from './event-store.port';

export const HELD_BACK_NOTICE_SECONDS = 5;

export interface HeldBack {
  /** When the oldest held-back event was written. */
  since: Date;
  /** How long ago that was, in seconds. */
  seconds: number;
}

/** The store's hold when it has lasted HELD_BACK_NOTICE_SECONDS or more; undefined otherwise, or on a store without one (EventStoreDB). */
export async function noticeableHold(
  store: Pick<EventStore, 'heldBackSince'>,
  now: () => number = Date.now,
): Promise<HeldBack | undefined> {
  const since = await store.heldBackSince?.();
  if (!since) return undefined;
  const seconds = (now() - since.getTime()) / 1000;
  return seconds >= HELD_BACK_NOTICE_SECONDS ? { since, seconds } : undefined;
}
