import type { PaymentIntent } from './payment-intent';

/**
 * Everything the provider holds. Never deduplicates by order: two confirmations for one order are
 * two intents here, exactly the double charge Idem's tests must be able to detect.
 */
export class IntentsStore {
  private readonly intents = new Map<string, PaymentIntent>();

  add(intent: PaymentIntent): void {
    this.intents.set(intent.id, intent);
  }

  get(id: string): PaymentIntent | undefined {
    return this.intents.get(id);
  }

  /** In creation order. */
  all(): PaymentIntent[] {
    return [...this.intents.values()];
  }

  withMetadata(key: string, value: string): PaymentIntent[] {
    return this.all().filter((intent) => intent.metadata[key] === value);
  }

  clear(): void {
    this.intents.clear();
  }
}
