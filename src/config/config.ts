/**
 * The one typed configuration object. `process.env` is read here and nowhere else. Dev defaults
 * make `npm start` work with nothing set; `NODE_ENV=production` refuses the unsafe ones.
 */
import { resolve } from 'node:path';
import { keepAliveProblem } from '../event-store/esdb/esdb.keepalive';
import { ConfigError, type ConfigProblem } from './config-error';
import { parseDuration } from './duration';
import { parseTokens, type TokenRoles } from './bearer-tokens';

export type EventStoreKind = 'postgres' | 'esdb';

/** Nest injection token of the process's {@link IdemConfig}. */
export const IDEM_CONFIG = Symbol('IDEM_CONFIG');

export interface IdemConfig {
  production: boolean;
  http: { host: string; port: number };
  /** Unset: PostgreSQL is started embedded, data under `dataDir`. */
  databaseUrl: string | undefined;
  /** Connections of the process's main pool (api requests, projections, charge steps). */
  databasePoolSize: number;
  /**
   * How long a pooled connection's statement may go unanswered before the connection is dropped and the
   * statement fails as STORE.UNAVAILABLE (503), unless PostgreSQL, asked on a new connection, says it is
   * still running it (src/database/answer-deadlines.ts).
   */
  databaseQueryDeadlineMs: number;
  /** How long a new connection's handshake (TCP, startup, authentication) may take. */
  databaseConnectTimeoutMs: number;
  dataDir: string;
  eventStore: {
    kind: EventStoreKind;
    esdbConnectionString: string | undefined;
    maxAppendBytes: number;
    /**
     * How often an idle PostgreSQL subscription looks for events other processes wrote (appends made
     * in this process wake it at once).
     */
    subscriptionPollMs: number;
  };
  /** Bearer token → role. Embedded mode: the `dev-<role>` tokens. */
  tokens: TokenRoles;
  devTokens: boolean;
  /** The Stripe-shaped sandbox provider, started in-process when `enabled` (the embedded default). */
  sandbox: { enabled: boolean; port: number };
  payments: {
    stripeSecretKey: string;
    /** Where the Stripe SDK talks: the sandbox by default, api.stripe.com when set to `https://api.stripe.com`. */
    stripeApiBase: string | undefined;
    webhookSecret: string;
    /**
     * Test mode only: one payment method charged for every customer instead of each customer's saved
     * card (null: look the saved card up, the only way with a live key). Default `pm_card_visa` with a
     * test key, which Stripe's test mode accepts for any customer.
     */
    paymentMethod: string | null;
    providerTimeoutMs: number;
    /** The currencies the shop charges in (DESIGN.md §6: EUR); a charge in any other is refused (400). */
    currencies: readonly string[];
  };
  /** The stop rules' optional webhook (DESIGN.md §7.5); no URL, no webhook. */
  alerts: {
    webhookUrl: string | undefined;
    /** When set, each delivery is signed (`Idem-Signature`, Stripe's scheme). */
    webhookSecret: string | undefined;
  };
  /** IDEM_CRM_URL: the CRM pull runs page through. Unset: the sandbox's in development, none in production. */
  contacts: { crmUrl: string | undefined };
  logLevel: 'error' | 'warn' | 'info' | 'debug';
  readiness: {
    /** /health/ready answers 503 when a live projection's oldest unprocessed event is older than this. */
    maxProjectionLagMs: number;
  };
  worker: {
    /** `npm start` runs projections and jobs inside the api process; production runs `worker.js`. */
    inApiProcess: boolean;
    concurrency: number;
    /**
     * Fallback poll of each job slot. New jobs wake idle slots through LISTEN/NOTIFY at once; the poll
     * only finds jobs scheduled for later (retries) and notifications lost in a reconnect.
     */
    jobPollMs: number;
    /**
     * How often each worker looks for jobs still locked by a worker process that died (SIGKILL, lost
     * machine) and gives them back to the queue; graphile-worker alone waits 4 hours.
     */
    deadWorkerSweepMs: number;
    recoveryIntervalMs: number;
    recoveryThresholdMs: number;
    /** How far behind the threshold one sweep looks (keeps each sweep narrow). */
    recoveryWindowMs: number;
  };
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): IdemConfig {
  const problems: ConfigProblem[] = [];
  const production = env.NODE_ENV === 'production';
  const read = <T>(name: string, parse: (raw: string) => T, fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    try {
      return parse(raw);
    } catch (error) {
      problems.push({ variable: name, problem: (error as Error).message });
      return fallback;
    }
  };

  const port = read('PORT', tcpPort, 3000);
  const databaseUrl = read('DATABASE_URL', postgresUrl, undefined);
  const kind = read('EVENT_STORE', oneOf(['postgres', 'esdb'] as const), 'postgres');
  const esdbConnectionString = read('EVENTSTORE_CONNECTION_STRING', esdbUrl, undefined);
  if (kind === 'esdb' && !esdbConnectionString) {
    problems.push({
      variable: 'EVENTSTORE_CONNECTION_STRING',
      problem: 'is required when EVENT_STORE=esdb (e.g. esdb://localhost:2113?tls=false)',
    });
  }
  const keepAlive = esdbConnectionString && keepAliveProblem(esdbConnectionString);
  if (keepAlive) problems.push({ variable: 'EVENTSTORE_CONNECTION_STRING', problem: `is refused: ${keepAlive}` });
  const configuredTokens = read('IDEM_TOKENS', parseTokens, undefined);
  if (production && !configuredTokens) {
    problems.push({
      variable: 'IDEM_TOKENS',
      problem: 'is required with NODE_ENV=production (the dev tokens are refused), e.g. "storefront=<secret>,support=<secret>"',
    });
  }
  if (production && !env.IDEM_WEBHOOK_SECRET) {
    problems.push({
      variable: 'IDEM_WEBHOOK_SECRET',
      problem: 'is required with NODE_ENV=production (the webhook signing secret from the provider)',
    });
  }
  if (production && !env.STRIPE_SECRET_KEY) {
    problems.push({ variable: 'STRIPE_SECRET_KEY', problem: 'is required with NODE_ENV=production' });
  }
  if (production && !databaseUrl) {
    problems.push({ variable: 'DATABASE_URL', problem: 'is required with NODE_ENV=production (embedded PostgreSQL is for development)' });
  }
  const stripeSecretKey = read('STRIPE_SECRET_KEY', stripeKey, 'sk_test_idem_sandbox');
  const liveKey = /^(sk|rk)_live_/.test(stripeSecretKey);
  if (liveKey && env.IDEM_PAYMENT_METHOD) {
    // In live mode a PaymentMethod belongs to one customer: Stripe would refuse it for every other one.
    problems.push({
      variable: 'IDEM_PAYMENT_METHOD',
      problem: 'must not be set with a live Stripe key: each customer is charged with their own saved card (it is a test-mode override)',
    });
  }
  const alertWebhookUrl = read('IDEM_ALERT_WEBHOOK_URL', absoluteHttpUrl, undefined);
  const alertWebhookSecret = read('IDEM_ALERT_WEBHOOK_SECRET', nonEmpty, undefined);
  if (alertWebhookSecret && !env.IDEM_ALERT_WEBHOOK_URL) {
    // A secret alone signs nothing: most likely the URL's variable is misspelt or missing.
    problems.push({ variable: 'IDEM_ALERT_WEBHOOK_URL', problem: 'is required when IDEM_ALERT_WEBHOOK_SECRET is set' });
  }
  const inApiProcess = read('IDEM_WORKER_IN_API', flag, !production);
  const config: IdemConfig = {
    production,
    http: { host: read('HOST', hostName, '127.0.0.1'), port },
    databaseUrl,
    databasePoolSize: read('IDEM_DB_POOL_SIZE', positiveInt, 20),
    databaseQueryDeadlineMs: read('IDEM_DB_QUERY_DEADLINE', answerDeadline, 10_000),
    databaseConnectTimeoutMs: read('IDEM_DB_CONNECT_TIMEOUT', answerDeadline, 5_000),
    dataDir: resolve(read('IDEM_DATA_DIR', nonEmpty, './.idem')),
    eventStore: {
      kind,
      esdbConnectionString,
      maxAppendBytes: read('IDEM_MAX_APPEND_BYTES', positiveInt, 1_048_576),
      // Embedded PostgreSQL belongs to this one process, so with the worker here too every append is
      // made here and wakes the subscription at once; the poll only covers a client connecting from
      // outside. A shared database has other writers (a separate worker sees every charge request
      // through this poll), so it keeps polling often.
      subscriptionPollMs: read('IDEM_SUBSCRIPTION_POLL_INTERVAL', timerDuration, !databaseUrl && inApiProcess ? 250 : 20),
    },
    tokens: configuredTokens ?? devTokens(),
    devTokens: !configuredTokens,
    sandbox: { enabled: read('IDEM_SANDBOX', flag, !production && !env.STRIPE_API_BASE), port: read('IDEM_SANDBOX_PORT', tcpPort, 3100) },
    payments: {
      stripeSecretKey,
      stripeApiBase: read('STRIPE_API_BASE', httpUrl, undefined),
      webhookSecret: read('IDEM_WEBHOOK_SECRET', nonEmpty, 'whsec_idem_dev'),
      paymentMethod: liveKey ? null : read('IDEM_PAYMENT_METHOD', testPaymentMethod, 'pm_card_visa'),
      providerTimeoutMs: read('IDEM_PROVIDER_TIMEOUT_MS', positiveInt, 10_000),
      currencies: read('IDEM_CURRENCIES', currencyList, ['EUR']),
    },
    alerts: { webhookUrl: alertWebhookUrl, webhookSecret: alertWebhookSecret },
    contacts: { crmUrl: read('IDEM_CRM_URL', httpUrl, undefined) },
    logLevel: read('LOG_LEVEL', oneOf(['error', 'warn', 'info', 'debug'] as const), 'info'),
    readiness: { maxProjectionLagMs: read('IDEM_READY_MAX_PROJECTION_LAG', positiveDuration, 5 * 60_000) },
    worker: {
      inApiProcess,
      concurrency: read('IDEM_WORKER_CONCURRENCY', positiveInt, 8),
      jobPollMs: read('IDEM_JOB_POLL_INTERVAL', timerDuration, 2_000),
      // A minute: a dead worker's jobs wait about that long (a lost machine adds up to the liveness
      // session's one-minute keepalive), for one scan of the jobs table per worker and minute.
      deadWorkerSweepMs: read('IDEM_DEAD_WORKER_SWEEP_INTERVAL', timerDuration, 60_000),
      // DESIGN.md §7.4: every 15 minutes by default. Zero is refused: a sweep scheduled every
      // millisecond would flood the job queue, and a zero window would silently recover nothing.
      recoveryIntervalMs: read('IDEM_RECOVERY_INTERVAL', timerDuration, 15 * 60_000),
      recoveryThresholdMs: read('IDEM_RECOVERY_THRESHOLD', parseDuration, 15 * 60_000),
      recoveryWindowMs: read('IDEM_RECOVERY_WINDOW', positiveDuration, 24 * 3_600_000),
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

export function devTokens(): TokenRoles {
  return new Map([
    ['dev-storefront', 'storefront'],
    ['dev-sync', 'sync'],
    ['dev-support', 'support'],
    ['dev-auditor', 'auditor'],
  ]);
}

function tcpPort(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 0 || value > 65535) throw new Error(`must be a TCP port number 0–65535, got "${raw}"`);
  return value;
}

function positiveInt(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** `EUR` or `EUR,CHF`: upper-case ISO-4217 codes the runtime knows. */
function currencyList(raw: string): string[] {
  const known = new Set(Intl.supportedValuesOf('currency'));
  const codes = raw.split(',').map((code) => code.trim());
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length) throw new Error(`must list upper-case ISO-4217 codes like EUR or EUR,CHF, got "${raw}"`);
  return codes;
}

function positiveDuration(raw: string): number {
  const ms = parseDuration(raw);
  if (ms <= 0) throw new Error(`must be a duration above zero, like 250ms or 2s, got "${raw}"`);
  return ms;
}

/**
 * Node keeps a timer of at most 2^31 − 1 ms (about 24.8 days); a longer setTimeout or setInterval
 * fires after 1 ms instead, with only a TimeoutOverflowWarning: a sweep set to run every 30d would
 * run every millisecond.
 */
const MAX_TIMER_MS = 2_147_483_647;

/** A duration Idem waits with a timer (a poll, a sweep's period). */
function timerDuration(raw: string): number {
  const ms = positiveDuration(raw);
  if (ms > MAX_TIMER_MS) throw new Error(`must be at most ${MAX_TIMER_MS} ms (about 24 days, the longest timer Node keeps), got "${raw}"`);
  return ms;
}

/**
 * How long Idem waits for PostgreSQL to answer before it takes the server for stalled. Under a second,
 * a server that is merely busy (a fresh backend forked on two loaded cores) would be taken for one.
 */
function answerDeadline(raw: string): number {
  const ms = timerDuration(raw);
  if (ms < 1000) throw new Error(`must be at least 1s: a shorter wait takes a busy server for a stalled one, got "${raw}"`);
  return ms;
}

function nonEmpty(raw: string): string {
  if (!raw.trim()) throw new Error('must not be blank');
  return raw;
}

/** `saved_card`: look each customer's saved card up even with a test key (as with a live one). */
function testPaymentMethod(raw: string): string | null {
  return raw === 'saved_card' ? null : nonEmpty(raw);
}

function flag(raw: string): boolean {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`must be true or false, got "${raw}"`);
}

function stripeKey(raw: string): string {
  if (!/^(sk|rk)_(test|live)_\w+$/.test(raw)) throw new Error('must be a Stripe secret key (sk_test_… or sk_live_…)');
  return raw;
}

function httpUrl(raw: string): string {
  if (!/^https?:\/\/[^\s/]+\/?$/.test(raw)) throw new Error(`must be a base URL like https://api.stripe.com, got "${raw}"`);
  return raw.replace(/\/$/, '');
}

/** The value is not echoed: a webhook URL often carries its own secret in the path (Slack's do). */
function absoluteHttpUrl(raw: string): string {
  const problem = 'must be an absolute http(s) URL like https://alerts.example.com/idem';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(problem);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${problem} (got ${url.protocol}//)`);
  return raw;
}

function hostName(raw: string): string {
  if (!/^[A-Za-z0-9.:-]+$/.test(raw)) throw new Error(`must be a host name or IP address, got "${raw}"`);
  return raw;
}

function postgresUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be a URL like postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`must start with postgres:// (got ${url.protocol}//)`);
  return raw;
}

function esdbUrl(raw: string): string {
  if (!/^(esdb|esdb\+discover|kurrentdb|kdb):\/\/\S+$/.test(raw)) throw new Error('must look like esdb://host:2113?tls=false');
  return raw;
}

function oneOf<T extends string>(allowed: readonly T[]) {
  return (raw: string): T => {
    if (!(allowed as readonly string[]).includes(raw)) throw new Error(`must be one of ${allowed.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}
