/**
 * What `verify` answers (GET /v1/audit/verify, `idem audit verify`, `idem audit verify-file`).
 *
 * Kinds of the first break:
 * - rewritten: the event at this place is not the one chained (data, metadata or type changed), or
 *   its chain link does not follow from the previous one (the chain table edited);
 * - reordered: the chained event is still there, but at another revision or place in the order;
 * - missing: the chained event is gone (deleted, the history cut short, a stream removed);
 * - extra: an event sits where the chain says nothing was;
 * - seal_mismatch: the running digest recomputed from the events differs from a seal (a row of
 *   audit_seals, the head, or a LedgerSealed event published in `seal-ledger`);
 * - link_mismatch: an event's `previousEventHash` does not name the event before it in its stream
 *   (reported at the later event: the one before it was changed, removed or moved);
 * - unlinked: an event carries no link although earlier events of its stream do (a link removed).
 *   A revision missing from a stream's links is reported as `missing`.
 *
 * `expected` is what the chain (or seal) recorded, `actual` what the events give now: event hashes,
 * chain hashes or digests (hex), null where there is nothing.
 */
export type BreakKind = 'rewritten' | 'reordered' | 'missing' | 'extra' | 'seal_mismatch' | 'link_mismatch' | 'unlinked';

export interface ChainBreak {
  stream: string | null;
  revision: number | null;
  position: string | null;
  kind: BreakKind;
  expected: string | null;
  actual: string | null;
  /** One sentence for a human. */
  detail: string;
}

export interface VerifyReport {
  ok: boolean;
  /** Chained events compared with the store (or lines of a file) before the first break. */
  checked: number;
  /** Seals whose digest was recomputed and matched: rows of audit_seals (seal lines in a file) and LedgerSealed events. */
  sealsChecked: number;
  /** Events the store holds past the chain's end (not yet linked by the projector): not checked. */
  unchained: number;
  /** The running digest over everything checked: compare it with a seal or an export kept elsewhere. */
  digest?: string;
  firstBreak?: ChainBreak;
}
