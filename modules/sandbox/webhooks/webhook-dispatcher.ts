import { deliverEvent, type DeliveryAttempt, type DeliverySettings, type WebhookEndpoint } from './deliver-event';
import type { StripeEvent } from './stripe-event';

/**
 * Misbehaviours real Stripe shows and webhook consumers must survive:
 * - duplicate: every delivery is sent twice (same event id);
 * - reorder: events are held in pairs and the newer one is sent first; a lone event waits for its
 *   partner, for `flush()`, or for reorder to be switched off.
 */
export interface WebhookMode {
  duplicate: boolean;
  reorder: boolean;
}

export interface EventRecord {
  event: StripeEvent;
  deliveries: DeliveryAttempt[];
}

export class WebhookDispatcher {
  private endpoint: WebhookEndpoint | undefined;
  private mode: WebhookMode = { duplicate: false, reorder: false };
  private records = new Map<string, EventRecord>();
  private reorderBuffer: StripeEvent[] = [];
  private readonly sending = new Set<Promise<void>>();

  constructor(
    endpoint: WebhookEndpoint | undefined,
    private readonly settings: DeliverySettings,
  ) {
    this.endpoint = endpoint;
  }

  configure(endpoint: WebhookEndpoint | undefined): void {
    this.endpoint = endpoint;
  }

  setMode(change: Partial<WebhookMode>): WebhookMode {
    this.mode = { ...this.mode, ...change };
    if (!this.mode.reorder) this.flush();
    return { ...this.mode };
  }

  currentMode(): WebhookMode {
    return { ...this.mode };
  }

  publish(event: StripeEvent): void {
    this.records.set(event.id, { event, deliveries: [] });
    if (!this.mode.reorder) return this.send([event]);
    this.reorderBuffer.push(event);
    if (this.reorderBuffer.length >= 2) this.flush();
  }

  /** Sends the events held for reordering, newest first; returns how many. */
  flush(): number {
    const held = this.reorderBuffer.reverse();
    this.reorderBuffer = [];
    if (held.length > 0) this.send(held);
    return held.length;
  }

  /** Delivers a past event again; false when the event is unknown. */
  resend(eventId: string): boolean {
    const record = this.records.get(eventId);
    if (!record) return false;
    this.send([record.event]);
    return true;
  }

  list(): EventRecord[] {
    return [...this.records.values()].map((record) => ({ event: record.event, deliveries: [...record.deliveries] }));
  }

  /** Resolves once every delivery started so far has finished (including its retries). */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  clear(): void {
    this.records = new Map();
    this.reorderBuffer = [];
    this.mode = { duplicate: false, reorder: false };
  }

  private send(events: StripeEvent[]): void {
    const endpoint = this.endpoint;
    if (!endpoint) return;
    const copies = this.mode.duplicate ? 2 : 1;
    const sending = (async () => {
      for (const event of events) {
        for (let copy = 0; copy < copies; copy++) await deliverEvent(event, endpoint, this.recordingSettings());
      }
    })().catch(() => undefined);
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }

  private recordingSettings(): DeliverySettings {
    return {
      ...this.settings,
      onAttempt: (attempt) => {
        this.records.get(attempt.eventId)?.deliveries.push(attempt);
        this.settings.onAttempt(attempt);
      },
    };
  }
}
