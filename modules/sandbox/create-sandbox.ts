import Fastify from 'fastify';
import { recordOutsideCharge, type OutsideCharge } from './payment-intents/outside-charge';
import type { AddressInfo } from 'node:net';
import { registerStripeApi } from './api/register-stripe-api';
import { registerCustomerControl } from './control/customer-control.routes';
import { registerFaultControl } from './control/fault-control.routes';
import { registerProviderBehaviour } from './control/provider-behaviour.routes';
import { registerProviderState } from './control/provider-state.routes';
import { settleProcessing, type SettleOutcome } from './payment-intents/settle-processing';
import { registerWebhookControl } from './control/webhook-control.routes';
import { registerSandboxCrm, type CrmOptions } from './crm/register-crm';
import { registerCustomers } from './customers/customers.routes';
import { registerPaymentMethods } from './customers/payment-methods.routes';
import { customerObject } from './customers/customer-object';
import { ensureTestCustomer, type TestCustomer } from './customers/test-customer';
import { registerCreatePaymentIntent } from './payment-intents/create-payment-intent.route';
import type { PaymentIntent } from './payment-intents/payment-intent';
import { ORDER_ID_METADATA_KEY } from './payment-intents/payment-intent';
import { registerReadPaymentIntents } from './payment-intents/read-payment-intents.routes';
import type { RequestLogEntry } from './request-log';
import { SandboxSignals } from './sandbox-signals';
import { SandboxJournal } from './sandbox-journal';
import { createSandboxState } from './sandbox-state';
import { newRequestId } from './stripe-ids';
import type { WebhookEndpoint } from './webhooks/deliver-event';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { setMaxListeners } from 'node:events';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Milliseconds since the epoch; drives `created`, key expiry (24 h) and webhook signature timestamps. */
  clock?: () => number;
  /** Where signed events go; `retryDelaysMs` is the backoff between attempts (default 500, 2000, 8000). */
  webhook?: WebhookEndpoint & { retryDelaysMs?: number[]; timeoutMs?: number };
  /**
   * How long a new or changed intent stays invisible to search, on `clock` (default 60 s, Stripe's
   * "usually within a minute"); 0 makes search immediately consistent. Also `POST /_sandbox/search`.
   */
  searchLagMs?: number;
  /** The sandbox CRM's seed and size (crm/register-crm.ts). */
  crm?: CrmOptions;
  /**
   * A directory to keep the provider's state in (sandbox-journal.ts): a sandbox started again on it
   * holds the intents, customers and answered idempotency keys of the one before. Without it the state
   * lives in memory only (tests, benches).
   */
  stateDir?: string;
}

export interface Sandbox {
  /** Base URL for the Stripe API (`/v1/…`) and the control API (`/_sandbox/…`). */
  url: string;
  port: number;
  /** Lets go of held connections, stops webhook retries, closes the server. */
  close(): Promise<void>;
  /** Events an in-process test can await instead of sleeping. */
  signals: SandboxSignals;
  /** What `GET /_sandbox/charges` answers: every intent the provider holds, optionally for one order. */
  charges(filter?: { orderId?: string }): PaymentIntent[];
  /** What `POST /_sandbox/charges` does: a succeeded charge made outside the API, whatever the order holds. */
  recordOutsideCharge(charge: OutsideCharge): PaymentIntent;
  /** What `GET /_sandbox/requests` answers. */
  requests(filter?: { orderId?: string }): RequestLogEntry[];
  /** Points webhook deliveries elsewhere (undefined stops them). */
  configureWebhook(endpoint: WebhookEndpoint | undefined): void;
  /** Resolves when every webhook delivery started so far has finished, retries included. */
  webhooksIdle(): Promise<void>;
  /**
   * What `POST /_sandbox/customers` does: a customer with this exact id (idempotent), optionally with a
   * Stripe test method as its default card. A PaymentIntent naming a customer the sandbox does not
   * hold is refused, as at Stripe, so a spec creates the customers it charges.
   */
  createCustomer(customer: TestCustomer): ReturnType<typeof customerObject>;
  /** What `POST /_sandbox/search {lagMs}` does. */
  setSearchLag(lagMs: number): void;
  /**
   * What `POST /_sandbox/payment_intents/:id/settle` does: a `processing` intent reaches the final status
   * its SEPA test token documents. `outcome`, when given, must be that status (a test's claim, checked).
   */
  settle(intentId: string, outcome?: SettleOutcome): PaymentIntent;
}

/**
 * Stripe retries a failed webhook delivery "for up to three days with an exponential back off" in live
 * mode and "three times over a few hours" in a sandbox (docs.stripe.com/webhooks, "Automatic
 * retries"; the intervals are not published). Here: three retries with exponential backoff, as a
 * Stripe sandbox does, scaled down from hours to seconds so a test sees them all.
 */
const DEFAULT_RETRY_DELAYS_MS = [500, 2000, 8000];
/** Not published by Stripe; an endpoint that has not answered within it counts as failed and is retried. */
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** Starts a Stripe-shaped provider on loopback (see README.md for the contract and the faults). */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const shutdown = new AbortController();
  // Every webhook delivery in flight, every wait before a retry and every request a latency fault holds
  // listens on this one signal until it settles: as many listeners as such waits, none left behind. Past
  // Node's default of 10 it warned of a leak (a burst of webhooks held by an api behind a stalled database).
  setMaxListeners(0, shutdown.signal);
  const signals = new SandboxSignals();
  const webhooks = new WebhookDispatcher(options.webhook && { url: options.webhook.url, secret: options.webhook.secret }, {
    clock,
    retryDelaysMs: options.webhook?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timeoutMs: options.webhook?.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    shutdown: shutdown.signal,
    onAttempt: (attempt) => signals.emit('webhook-attempted', attempt),
  });
  const state = createSandboxState(clock, { webhooks, signals, shutdown: shutdown.signal }, options.searchLagMs);
  const journal = options.stateDir === undefined ? undefined : SandboxJournal.open(options.stateDir, state);

  const app = Fastify({ logger: false, genReqId: newRequestId, forceCloseConnections: true });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', request.id);
  });
  registerStripeApi(app, state);
  registerCreatePaymentIntent(app, state);
  registerReadPaymentIntents(app, state);
  registerCustomers(app, state);
  registerPaymentMethods(app, state);
  registerCustomerControl(app, state);
  registerFaultControl(app, state);
  registerProviderState(app, state);
  registerProviderBehaviour(app, state);
  registerWebhookControl(app, state);
  registerSandboxCrm(app, options.crm);

  try {
    await app.listen({ port: options.port ?? 0, host });
  } catch (error) {
    journal?.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;

  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    signals,
    close: async () => {
      shutdown.abort();
      await Promise.all([app.close(), webhooks.idle()]);
      journal?.close();
    },
    charges: (filter = {}) =>
      filter.orderId === undefined ? state.intents.all() : state.intents.withMetadata(ORDER_ID_METADATA_KEY, filter.orderId),
    recordOutsideCharge: (charge) => recordOutsideCharge(state, charge),
    requests: (filter = {}) => state.requestLog.list(filter),
    createCustomer: (customer) => customerObject(ensureTestCustomer(state.customers, customer)),
    configureWebhook: (endpoint) => webhooks.configure(endpoint),
    webhooksIdle: () => webhooks.idle(),
    setSearchLag: (lagMs) => {
      state.intents.searchLagMs = lagMs;
    },
    settle: (intentId, outcome) => {
      const settled = settleProcessing(state, intentId, outcome);
      if ('error' in settled) throw new Error(settled.error);
      return settled;
    },
  };
}

/** A wildcard bind address is not something a client can connect to; loopback is. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
