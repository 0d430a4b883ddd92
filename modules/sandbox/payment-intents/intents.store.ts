import { ORDER_ID_METADATA_KEY, type PaymentIntent } from './payment-intent';

/**
 * Everything the provider holds, declined intents included. It keeps at most one *succeeded* intent
 * per order (the decline rule refuses a second), but the refused attempt is stored too: it is the
 * double charge Idem's tests must be able to detect (`isChargeAttempt`).
 */
export class IntentsStore {
  private readonly intents = new Map<string, PaymentIntent>();
  private readonly byOrder = new Map<string, PaymentIntent[]>();

  add(intent: PaymentIntent): void {
    this.intents.set(intent.id, intent);
    const orderId = intent.metadata[ORDER_ID_METADATA_KEY];
    if (orderId === undefined) return;
    const ofOrder = this.byOrder.get(orderId);
    if (ofOrder) ofOrder.push(intent);
    else this.byOrder.set(orderId, [intent]);
  }

  get(id: string): PaymentIntent | undefined {
    return this.intents.get(id);
  }

  /** In creation order. */
  all(): PaymentIntent[] {
    return [...this.intents.values()];
  }

  withMetadata(key: string, value: string): PaymentIntent[] {
    if (key === ORDER_ID_METADATA_KEY) return [...(this.byOrder.get(value) ?? [])];
    return this.all().filter((intent) => intent.metadata[key] === value);
  }

  hasSucceeded(orderId: string): boolean {
    return (this.byOrder.get(orderId) ?? []).some((intent) => intent.status === 'succeeded');
  }

  clear(): void {
    this.intents.clear();
    this.byOrder.clear();
  }
}
