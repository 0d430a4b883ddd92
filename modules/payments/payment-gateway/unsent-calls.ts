/**
 * Whether a call to the provider ran nothing there because none of its tries was ever sent. stripe-node
 * retries a call under the same Idempotency-Key (its network retries, and a reset connection once even
 * with retries off) and its error names only how the last try failed: a retry refused after a try that
 * was sent and then lost says nothing about that first try, which may have charged. So each try's end is
 * recorded here, by key, from the SDK's HTTP client; a call is unsent only when every try under its key
 * failed in a way that only a connection never made can fail.
 */
import Stripe from 'stripe';

/**
 * How a try can end with the provider having run nothing. Refused (nothing listens at the provider's
 * address: its process is gone) or the name did not resolve: the request's bytes cannot have left. Not
 * resets, timeouts or unreachable hosts, which can also end a request that was sent. And answered 429:
 * Stripe's rate limiter refused it before endpoint execution began, the point from which Stripe runs a
 * request and saves its result under the key (docs.stripe.com/rate-limits, docs.stripe.com/api/idempotent_requests).
 */
const RATE_LIMITED = 'rate_limited';
const RAN_NOTHING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', RATE_LIMITED]);

type MakeRequest = ReturnType<typeof Stripe.createNodeHttpClient>['makeRequest'];

export interface WatchedCall {
  /**
   * True when at least one try ended, and every try under the key ended so that the provider ran nothing:
   * without a connection, or rate limited (429). A try that was sent and lost makes it false.
   */
  ranNothing(): boolean;
  stop(): void;
}

export class UnsentCalls {
  private readonly watching = new Map<string, Set<string[]>>();

  /** The SDK's own HTTP client, recording how each keyed try ends for the calls watched under its key. */
  httpClient(): Stripe.HttpClient {
    const client = Stripe.createNodeHttpClient();
    const makeRequest: MakeRequest = client.makeRequest.bind(client);
    client.makeRequest = (...args: Parameters<MakeRequest>) => {
      const key = idempotencyKeyOf(args[4]);
      const sent = makeRequest(...args);
      if (key === undefined) return sent;
      return sent.then(
        (response) => {
          this.record(key, response.getStatusCode() === 429 ? RATE_LIMITED : 'answered');
          return response;
        },
        (error: unknown) => {
          this.record(key, (error as { code?: unknown }).code === undefined ? 'failed' : String((error as { code?: unknown }).code));
          throw error;
        },
      );
    };
    return client;
  }

  /**
   * Watches the tries under `key` until stop(). Two calls under one key at once each see the other's
   * tries too, which can only make a call look sent.
   */
  watch(key: string): WatchedCall {
    const ends: string[] = [];
    const calls = this.watching.get(key) ?? new Set<string[]>();
    calls.add(ends);
    this.watching.set(key, calls);
    return {
      ranNothing: () => ends.length > 0 && ends.every((end) => RAN_NOTHING.has(end)),
      stop: () => {
        calls.delete(ends);
        if (calls.size === 0) this.watching.delete(key);
      },
    };
  }

  private record(key: string, end: string): void {
    for (const ends of this.watching.get(key) ?? []) ends.push(end);
  }
}

function idempotencyKeyOf(headers: object): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'idempotency-key' && typeof value === 'string') return value;
  }
  return undefined;
}
