import { pause } from '../faults/pause';
import { postJson } from './post-json';
import { signatureHeader } from './signature';
import type { StripeEvent } from './stripe-event';

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export interface DeliveryAttempt {
  eventId: string;
  attempt: number;
  status: number | null;
  error: string | null;
  delivered: boolean;
  at: string;
}

export interface DeliverySettings {
  clock: () => number;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  shutdown: AbortSignal;
  onAttempt: (attempt: DeliveryAttempt) => void;
}

/**
 * Delivers one event until the endpoint answers 2xx, retrying with backoff after a failure (one retry
 * per entry of `retryDelaysMs`). Each attempt is signed afresh, as Stripe does, so the signature
 * timestamp is the time of that attempt. Never throws: a broken endpoint must not break the provider.
 */
export async function deliverEvent(event: StripeEvent, endpoint: WebhookEndpoint, settings: DeliverySettings): Promise<boolean> {
  const payload = JSON.stringify(event, null, 2);
  for (let attempt = 1; attempt <= settings.retryDelaysMs.length + 1; attempt++) {
    if (settings.shutdown.aborted) return false;
    const timestamp = Math.floor(settings.clock() / 1000);
    const headers = {
      'Stripe-Signature': signatureHeader(payload, endpoint.secret, timestamp),
      'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    const outcome = await postJson(endpoint.url, payload, headers, settings.timeoutMs, settings.shutdown).then(
      (status) => ({ status, error: null }),
      (error: unknown) => ({ status: null, error: error instanceof Error ? error.message : String(error) }),
    );
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    settings.onAttempt({ eventId: event.id, attempt, ...outcome, delivered, at: new Date(settings.clock()).toISOString() });
    if (delivered) return true;
    const delay = settings.retryDelaysMs[attempt - 1];
    if (delay === undefined || (await pause(delay, settings.shutdown)) === 'shutdown') return false;
  }
  return false;
}
