import { ConfigError } from './config-error';
import { loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.variable);
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  describe('with nothing set', () => {
    it('runs embedded on port 3000 with the dev tokens and data under ./.idem', () => {
      const config = loadConfig({});
      expect(config.http.port).toBe(3000);
      expect(config.databaseUrl).toBeUndefined();
      expect(config.dataDir).toMatch(/\.idem$/);
      expect(config.devTokens).toBe(true);
      expect(config.tokens.get('dev-storefront')).toBe('storefront');
      expect(config.eventStore.kind).toBe('postgres');
      expect(config.worker).toMatchObject({ inApiProcess: true, recoveryIntervalMs: 900_000, recoveryThresholdMs: 900_000 });
    });

    it("polls for other processes' events every 250 ms and for scheduled jobs every 2 s", () => {
      expect(loadConfig({}).eventStore.subscriptionPollMs).toBe(250);
      expect(loadConfig({}).worker.jobPollMs).toBe(2_000);
    });

    it('looks for jobs locked by dead workers every minute', () => {
      expect(loadConfig({}).worker.deadWorkerSweepMs).toBe(60_000);
      expect(loadConfig({ IDEM_DEAD_WORKER_SWEEP_INTERVAL: '15s' }).worker.deadWorkerSweepMs).toBe(15_000);
    });

    it('polls every 20 ms on a shared database, where other processes append', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://idem:pw@db:5432/idem' }).eventStore.subscriptionPollMs).toBe(20);
    });

    it('opens a main pool of 20 connections unless IDEM_DB_POOL_SIZE says otherwise', () => {
      expect(loadConfig({}).databasePoolSize).toBe(20);
      expect(loadConfig({ IDEM_DB_POOL_SIZE: '48' }).databasePoolSize).toBe(48);
    });

    it('waits 10 s for an answer to a statement and 5 s for a new connection, unless told otherwise', () => {
      expect(loadConfig({})).toMatchObject({ databaseQueryDeadlineMs: 10_000, databaseConnectTimeoutMs: 5_000 });
      expect(loadConfig({ IDEM_DB_QUERY_DEADLINE: '30s', IDEM_DB_CONNECT_TIMEOUT: '2500ms' })).toMatchObject({
        databaseQueryDeadlineMs: 30_000,
        databaseConnectTimeoutMs: 2_500,
      });
    });

    it('takes a timer of up to 2^31 − 1 ms, the longest Node keeps', () => {
      const config = loadConfig({ IDEM_RECOVERY_INTERVAL: '24d', IDEM_JOB_POLL_INTERVAL: '2147483647ms' });
      expect(config.worker).toMatchObject({ recoveryIntervalMs: 24 * 86_400_000, jobPollMs: 2_147_483_647 });
    });

    it('reads durations such as IDEM_RECOVERY_INTERVAL=2m', () => {
      expect(loadConfig({ IDEM_RECOVERY_INTERVAL: '2m', IDEM_RECOVERY_THRESHOLD: '90s' }).worker).toMatchObject({
        recoveryIntervalMs: 120_000,
        recoveryThresholdMs: 90_000,
      });
    });
  });

  describe('with a bad value', () => {
    it.each([
      ['PORT', 'eighty'],
      ['PORT', '70000'],
      ['DATABASE_URL', 'mysql://x@y/z'],
      ['DATABASE_URL', 'not a url'],
      ['EVENT_STORE', 'mongo'],
      ['IDEM_MAX_APPEND_BYTES', '-5'],
      ['IDEM_DB_POOL_SIZE', '0'],
      ['IDEM_TOKENS', 'cashier=0123456789abcdef'],
      ['LOG_LEVEL', 'loud'],
      ['STRIPE_SECRET_KEY', 'pk_test_123'],
      ['STRIPE_API_BASE', 'ftp://x'],
      ['IDEM_SANDBOX', 'maybe'],
      ['IDEM_RECOVERY_INTERVAL', 'often'],
      ['IDEM_RECOVERY_THRESHOLD', '15'],
      ['IDEM_RECOVERY_INTERVAL', '0s'],
      ['IDEM_CURRENCIES', 'eur'],
      ['IDEM_CURRENCIES', 'EUR,XYZ'],
      ['IDEM_RECOVERY_WINDOW', '0m'],
      ['IDEM_JOB_POLL_INTERVAL', '0s'],
      ['IDEM_DEAD_WORKER_SWEEP_INTERVAL', '0s'],
      ['IDEM_DEAD_WORKER_SWEEP_INTERVAL', 'hourly'],
      ['IDEM_SUBSCRIPTION_POLL_INTERVAL', 'fast'],
      // Beyond a Node timer's 2^31 − 1 ms, which would then fire every millisecond.
      ['IDEM_RECOVERY_INTERVAL', '25d'],
      ['IDEM_DEAD_WORKER_SWEEP_INTERVAL', '9999d'],
      ['IDEM_JOB_POLL_INTERVAL', '2147483648ms'],
      ['IDEM_SUBSCRIPTION_POLL_INTERVAL', '30d'],
      ['IDEM_DB_QUERY_DEADLINE', '10'],
      ['IDEM_DB_QUERY_DEADLINE', '0s'],
      // Too short to tell a stalled server from a busy one.
      ['IDEM_DB_QUERY_DEADLINE', '500ms'],
      ['IDEM_DB_CONNECT_TIMEOUT', '100ms'],
      ['IDEM_DB_CONNECT_TIMEOUT', 'soon'],
      ['IDEM_DB_CONNECT_TIMEOUT', '25d'],
      ['IDEM_ALERT_WEBHOOK_URL', 'alerts.example.com/idem'],
      ['IDEM_ALERT_WEBHOOK_URL', 'ftp://alerts.example.com/idem'],
    ])('names %s=%s in the error', (variable, value) => {
      expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`${variable} .*`));
      expect(problemsOf({ [variable]: value })).toEqual([variable]);
    });

    it('lists every problem at once', () => {
      expect(problemsOf({ PORT: 'x', EVENT_STORE: 'y' })).toEqual(['PORT', 'EVENT_STORE']);
    });
  });

  it('requires a connection string when EVENT_STORE=esdb', () => {
    expect(problemsOf({ EVENT_STORE: 'esdb' })).toEqual(['EVENTSTORE_CONNECTION_STRING']);
    expect(loadConfig({ EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' }).eventStore.kind).toBe(
      'esdb',
    );
  });

  it('refuses a connection string that turns off the keep-alive subscriptions need to notice a stalled server', () => {
    for (const setting of ['keepAliveInterval=-1', 'keepAliveTimeout=-1']) {
      const env = { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: `esdb://localhost:2113?tls=false&${setting}` };
      expect(problemsOf(env)).toEqual(['EVENTSTORE_CONNECTION_STRING']);
    }
    const kept = { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false&keepAliveInterval=5000' };
    expect(loadConfig(kept).eventStore.esdbConnectionString).toBe(kept.EVENTSTORE_CONNECTION_STRING);
  });

  describe('the alert webhook', () => {
    it('is off by default', () => {
      expect(loadConfig({}).alerts).toEqual({ webhookUrl: undefined, webhookSecret: undefined });
    });

    it('takes an absolute http(s) URL and an optional signing secret', () => {
      const url = 'https://alerts.example.com/hooks/idem?team=payments';
      expect(loadConfig({ IDEM_ALERT_WEBHOOK_URL: url }).alerts).toEqual({ webhookUrl: url, webhookSecret: undefined });
      expect(loadConfig({ IDEM_ALERT_WEBHOOK_URL: url, IDEM_ALERT_WEBHOOK_SECRET: 's3cret' }).alerts.webhookSecret).toBe('s3cret');
    });

    it('does not repeat a bad URL in the error, since webhook URLs often carry a secret', () => {
      expect(() => loadConfig({ IDEM_ALERT_WEBHOOK_URL: 'hooks.example.com/T0/B0/xoxb-secret' })).toThrow(
        /IDEM_ALERT_WEBHOOK_URL must be an absolute http\(s\) URL like https:\/\/alerts\.example\.com\/idem$/,
      );
    });

    it('refuses a secret without a URL', () => {
      expect(problemsOf({ IDEM_ALERT_WEBHOOK_SECRET: 's3cret' })).toEqual(['IDEM_ALERT_WEBHOOK_URL']);
    });
  });

  describe('the payment method charged', () => {
    it("is Stripe's test card for every customer with a test key, unless told to look each customer's card up", () => {
      expect(loadConfig({}).payments.paymentMethod).toBe('pm_card_visa');
      expect(loadConfig({ IDEM_PAYMENT_METHOD: 'pm_card_mastercard' }).payments.paymentMethod).toBe('pm_card_mastercard');
      expect(loadConfig({ IDEM_PAYMENT_METHOD: 'saved_card' }).payments.paymentMethod).toBeNull();
    });

    it("is each customer's saved card with a live key", () => {
      expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc' }).payments.paymentMethod).toBeNull();
      expect(loadConfig({ STRIPE_SECRET_KEY: 'rk_live_abc' }).payments.paymentMethod).toBeNull();
    });

    it('refuses a test-mode method with a live key, saying why', () => {
      expect(problemsOf({ STRIPE_SECRET_KEY: 'sk_live_abc', IDEM_PAYMENT_METHOD: 'pm_card_visa' })).toEqual(['IDEM_PAYMENT_METHOD']);
      expect(problemsOf({ STRIPE_SECRET_KEY: 'rk_live_abc', IDEM_PAYMENT_METHOD: 'pm_1Abc' })).toEqual(['IDEM_PAYMENT_METHOD']);
      expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc', IDEM_PAYMENT_METHOD: 'pm_card_visa' })).toThrow(
        /IDEM_PAYMENT_METHOD must not be set with a live Stripe key/,
      );
    });
  });

  describe('with NODE_ENV=production', () => {
    it('refuses to start on dev tokens and an embedded database', () => {
      expect(problemsOf({ NODE_ENV: 'production' })).toEqual(['IDEM_TOKENS', 'IDEM_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'DATABASE_URL']);
    });

    it('starts with configured tokens and a database', () => {
      const config = loadConfig({
        NODE_ENV: 'production',
        IDEM_TOKENS: 'storefront=0123456789abcdef0123',
        DATABASE_URL: 'postgres://idem:pw@db:5432/idem',
        IDEM_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_SECRET_KEY: 'sk_live_abc',
      });
      expect(config.sandbox.enabled).toBe(false);
      // The worker runs in its own process and sees the api's charge requests only by polling.
      expect(config.eventStore.subscriptionPollMs).toBe(20);
      expect(config.devTokens).toBe(false);
      expect(config.tokens.get('dev-storefront')).toBeUndefined();
      expect(config.tokens.get('0123456789abcdef0123')).toBe('storefront');
    });
  });
});
