/**
 * Walks events in the global order and links each to the chain: its event hash, its stream's chain
 * hash and the running digest. The projector starts it from the stored head; the verifiers start it
 * from nothing and compare what it computes with what was stored or exported.
 */
import { chainHash, eventHash, GENESIS_HASH, nextDigest, type HashedEvent } from './chain-hash';

export interface ChainLink {
  /** 1-based place of the event in the chained global order. */
  eventNumber: number;
  eventHash: string;
  chainHash: string;
  /** The running digest after this event. */
  digest: string;
}

export interface ChainHead {
  eventsChained: number;
  digest: string;
}

export const EMPTY_CHAIN: ChainHead = { eventsChained: 0, digest: GENESIS_HASH };

export class ChainReplay {
  private eventsChained: number;
  private digest: string;

  /** `lastChainHashes`: the chain hash of each stream's latest linked event (streams not in it start at genesis). */
  constructor(
    head: ChainHead = EMPTY_CHAIN,
    private readonly lastChainHashes = new Map<string, string>(),
  ) {
    this.eventsChained = head.eventsChained;
    this.digest = head.digest;
  }

  get head(): ChainHead {
    return { eventsChained: this.eventsChained, digest: this.digest };
  }

  link(event: HashedEvent): ChainLink {
    const hash = eventHash(event);
    const chained = chainHash(this.lastChainHashes.get(event.stream) ?? GENESIS_HASH, hash);
    this.lastChainHashes.set(event.stream, chained);
    this.eventsChained += 1;
    this.digest = nextDigest(this.digest, chained);
    return { eventNumber: this.eventsChained, eventHash: hash, chainHash: chained, digest: this.digest };
  }
}
