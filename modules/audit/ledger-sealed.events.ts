/**
 * The seals of the audit chain as history (DESIGN.md §4, §8): stream `seal-ledger`, one `LedgerSealed`
 * per seal the audit_chain projector records, in order. Each names the place it seals (the position of
 * the sealed event and how many events the chain held up to it) and the running digest there. Seal
 * events are events like any other: chained, exported and covered by later seals. Type strings are
 * permanent.
 */
export const SEAL_STREAM = 'seal-ledger';

export interface LedgerSealed {
  type: 'LedgerSealed';
  data: {
    /** Position of the sealed event in the global order. */
    position: string;
    /** Events chained up to and including the sealed one. */
    eventsSealed: number;
    /** The running digest after the sealed event (hex). */
    digest: string;
  };
}
