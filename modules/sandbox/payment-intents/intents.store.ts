import { ORDER_ID_METADATA_KEY, type PaymentIntent } from './payment-intent';

/**
 * "Usually within a minute": spec3.json `GET /v1/payment_intents/search` description ("Don't use search
 * in read-after-write flows where strict consistency is necessary. Under normal operating conditions,
 * data is searchable in less than a minute. Occasionally, propagation of new or updated data can be up
 * to an hour behind during outages"). The production default of the sandbox's search lag.
 */
export const DEFAULT_SEARCH_LAG_MS = 60_000;

interface IndexedVersion {
  indexedAt: number;
  intent: PaymentIntent;
}

/**
 * Everything the provider holds, declined intents included. Retrieve by id is strongly consistent
 * (the current version); search sees each intent as it was `searchLagMs` ago, so a new intent is not
 * found and an updated one shows its old status until its change has propagated.
 */
export class IntentsStore {
  private readonly intents = new Map<string, PaymentIntent>();
  private readonly byOrder = new Map<string, string[]>();
  private readonly searchIndex = new Map<string, IndexedVersion[]>();
  searchLagMs: number;
  /** Told every new intent and new version, with the time it changed (the sandbox journal). */
  onChange?: (intent: PaymentIntent, at: number) => void;

  constructor(
    private readonly clock: () => number,
    searchLagMs = DEFAULT_SEARCH_LAG_MS,
  ) {
    this.searchLagMs = searchLagMs;
  }

  add(intent: PaymentIntent): void {
    const at = this.clock();
    this.onChange?.(intent, at);
    this.addAt(intent, at);
  }

  /** A new version of an existing intent (a processing payment settling). */
  update(intent: PaymentIntent): void {
    if (!this.intents.has(intent.id)) throw new Error(`no intent ${intent.id}`);
    const at = this.clock();
    this.onChange?.(intent, at);
    this.updateAt(intent, at);
  }

  /** A version read back from the journal, at the time it was made: new or the next version of one. */
  restore(intent: PaymentIntent, at: number): void {
    if (this.intents.has(intent.id)) this.updateAt(intent, at);
    else this.addAt(intent, at);
  }

  /** Every version of every intent with the time it was made, oldest first per intent, intents in creation order. */
  *versionsForJournal(): Generator<{ intent: PaymentIntent; at: number }> {
    for (const versions of this.searchIndex.values())
      for (const version of versions) yield { intent: version.intent, at: version.indexedAt };
  }

  private addAt(intent: PaymentIntent, at: number): void {
    this.intents.set(intent.id, intent);
    this.index(intent, at);
    const orderId = intent.metadata[ORDER_ID_METADATA_KEY];
    if (orderId === undefined) return;
    const ofOrder = this.byOrder.get(orderId);
    if (ofOrder) ofOrder.push(intent.id);
    else this.byOrder.set(orderId, [intent.id]);
  }

  private updateAt(intent: PaymentIntent, at: number): void {
    this.intents.set(intent.id, intent);
    this.index(intent, at);
  }

  get(id: string): PaymentIntent | undefined {
    return this.intents.get(id);
  }

  /** In creation order, current versions. */
  all(): PaymentIntent[] {
    return [...this.intents.values()];
  }

  /** Current versions, in creation order: what the provider really holds (for the control API). */
  withMetadata(key: string, value: string): PaymentIntent[] {
    if (key === ORDER_ID_METADATA_KEY) return (this.byOrder.get(value) ?? []).map((id) => this.intents.get(id)!);
    return this.all().filter((intent) => intent.metadata[key] === value);
  }

  /** What search sees now: for each intent, its newest version that has propagated, in creation order. */
  searchMetadata(key: string, value: string): PaymentIntent[] {
    const now = this.clock();
    const found: PaymentIntent[] = [];
    for (const versions of this.searchIndex.values()) {
      // The lag in force now decides, so a test that sets it to 0 sees everything at once.
      const visible = versions.filter((version) => version.indexedAt + this.searchLagMs <= now).at(-1)?.intent;
      if (visible && visible.metadata[key] === value) found.push(visible);
    }
    return found;
  }

  clear(): void {
    this.intents.clear();
    this.byOrder.clear();
    this.searchIndex.clear();
  }

  private index(intent: PaymentIntent, indexedAt: number): void {
    const version = { indexedAt, intent };
    const versions = this.searchIndex.get(intent.id);
    if (versions) versions.push(version);
    else this.searchIndex.set(intent.id, [version]);
  }
}
