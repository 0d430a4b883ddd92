import type { RequestFingerprint } from './fingerprint';

/**
 * docs.stripe.com/api/idempotent_requests: "Idempotency keys are up to 255 characters long"; keys may be removed
 * "after they're at least 24 hours old. We generate a new request if a key is reused after the original is pruned."
 * The sandbox prunes at exactly 24 h (the earliest Stripe may).
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** The exact answer that endpoint execution produced, replayed byte for byte. */
export interface StoredResponse {
  status: number;
  body: string;
  originalRequestId: string;
}

export type Claim =
  | { kind: 'claimed'; ticket: ClaimTicket }
  /** `originalRequestId`: the request that holds the key, echoed as `Original-Request`. */
  | { kind: 'in_flight'; originalRequestId: string }
  | { kind: 'mismatch'; reason: 'parameters' | 'endpoint'; originalRequestId: string }
  | { kind: 'replay'; response: StoredResponse };

interface Entry {
  fingerprint: RequestFingerprint;
  firstSeenAt: number;
  requestId: string;
  response?: StoredResponse;
}

/** An answered key as the sandbox journal keeps it (keys still in flight are not kept: see sandbox-journal.ts). */
export type IdempotencyRecord = Required<Entry>;

/** Proof of the claim, so that a request that outlived a sandbox reset cannot write into a newer claim. */
export type ClaimTicket = { readonly key: string; readonly entry: object };

/**
 * Stripe's idempotency layer (docs.stripe.com/api/idempotent_requests): the first request with a key claims it; while
 * it runs, the same key gets 409 `idempotency_key_in_use` (one of Stripe's error codes in stripe-node's
 * `PaymentIntent.LastPaymentError.Code`; stripe-node `src/RequestSender.ts` retries a 409); once it has
 * an answer, the same key with the same parameters gets that answer again ("including 500 errors"), and with other
 * parameters or another endpoint gets 400 ("compares incoming parameters to those of the original request and errors
 * if they're not the same"; stripe-node raises `StripeIdempotencyError` for `type: idempotency_error`). Only results
 * of endpoint execution are stored ("We save results only after the execution of an endpoint begins"):
 * the caller releases the claim without storing when nothing was executed (validation errors, a
 * request dropped before execution). Keys belong to an account, as at Stripe ("idempotency keys are
 * scoped to the account", docs.stripe.com/api/idempotent_requests; with Connect, the `Stripe-Account`
 * the request acts for): the same key sent by two accounts is two keys.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  /** Told every key once it has its answer (the sandbox journal); `key` is the account-scoped key. */
  onAnswered?: (key: string, record: IdempotencyRecord) => void;

  constructor(private readonly clock: () => number) {}

  claim(account: string, idempotencyKey: string, fingerprint: RequestFingerprint, requestId: string): Claim {
    const now = this.clock();
    const key = `${account}\u0000${idempotencyKey}`;
    const existing = this.entries.get(key);
    if (!existing || this.isExpired(existing, now)) {
      const entry: Entry = { fingerprint, firstSeenAt: now, requestId };
      this.entries.set(key, entry);
      return { kind: 'claimed', ticket: { key, entry } };
    }
    const originalRequestId = existing.requestId;
    if (existing.fingerprint.endpoint !== fingerprint.endpoint) return { kind: 'mismatch', reason: 'endpoint', originalRequestId };
    if (existing.fingerprint.parameters !== fingerprint.parameters) return { kind: 'mismatch', reason: 'parameters', originalRequestId };
    if (!existing.response) return { kind: 'in_flight', originalRequestId };
    return { kind: 'replay', response: existing.response };
  }

  complete(ticket: ClaimTicket, response: StoredResponse): void {
    const entry = this.entries.get(ticket.key);
    if (entry !== ticket.entry) return;
    this.onAnswered?.(ticket.key, { ...entry, response });
    entry.response = response;
  }

  /** An answered key read back from the journal; one already expired is not restored. */
  restore(key: string, record: IdempotencyRecord): void {
    if (!this.isExpired(record, this.clock())) this.entries.set(key, { ...record });
  }

  /** The answered keys not yet expired: what the journal keeps when it is rewritten. */
  *answeredKeys(): Generator<[string, IdempotencyRecord]> {
    const now = this.clock();
    for (const [key, entry] of this.entries) if (entry.response && !this.isExpired(entry, now)) yield [key, entry as IdempotencyRecord];
  }

  release(ticket: ClaimTicket): void {
    const entry = this.entries.get(ticket.key);
    if (entry === ticket.entry && !entry.response) this.entries.delete(ticket.key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** An unfinished claim never expires: its request is still running. */
  private isExpired(entry: Entry, now: number): boolean {
    return entry.response !== undefined && now - entry.firstSeenAt >= IDEMPOTENCY_KEY_TTL_MS;
  }
}
