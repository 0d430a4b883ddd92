/**
 * README's Configuration table is what a newcomer sets Idem up from: every variable the config loader
 * reads is named there, every variable the table names is read, and the defaults it prints are the ones
 * loadConfig applies with nothing set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { parseDuration } from '../../src/config/duration';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n## Configuration\n'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 1));

/** Each table row: its variables (`IDEM_RECOVERY_INTERVAL` / `_THRESHOLD` spelt out) and their defaults, in order. */
const rows = section
  .split('\n')
  .filter((line) => /^\| `[A-Z]/.test(line))
  .map((line) => {
    const [names, defaults] = line.split(/(?<!\\)\|/).slice(1, 3);
    const spelt = [...names.matchAll(/`([A-Z_][A-Z0-9_]*)`/g)].map((m) => m[1]);
    const variables = spelt.map((name) => (name.startsWith('_') ? spelt[0].replace(/_[A-Z]+$/, '') + name : name));
    return { variables, defaults: defaults.split(' / ').map((text) => text.trim()) };
  });
const documented = new Map(rows.flatMap(({ variables, defaults }) => variables.map((name, i) => [name, defaults[i]] as const)));

const configSource = readFileSync(join(root, 'src', 'config', 'config.ts'), 'utf8');
const readByConfig = new Set([...configSource.matchAll(/(?:\bread\('|\benv\.)([A-Z][A-Z0-9_]*)\b/g)].map((match) => match[1]));

describe("README's Configuration table", () => {
  it('names every variable the config loader reads (NODE_ENV in the text below it)', () => {
    expect(readByConfig.size).toBeGreaterThan(25);
    const named = (name: string) => documented.has(name) || section.includes(`\`${name}\``) || section.includes(`\`${name}=`);
    const missing = [...readByConfig].filter((name) => !named(name));
    expect(missing).toEqual([]);
  });

  it('lists only variables that something reads', () => {
    // TEST_DATABASE_URL is the test harness's (test/harness/global-setup.ts), not the service's.
    const unread = [...documented.keys()].filter((name) => !readByConfig.has(name) && name !== 'TEST_DATABASE_URL');
    expect(unread).toEqual([]);
  });

  it('prints the defaults loadConfig applies with nothing set', () => {
    const config = loadConfig({});
    const applied: Record<string, string | number> = {
      PORT: String(config.http.port),
      HOST: config.http.host,
      IDEM_DB_POOL_SIZE: String(config.databasePoolSize),
      EVENT_STORE: config.eventStore.kind,
      IDEM_MAX_APPEND_BYTES: String(config.eventStore.maxAppendBytes),
      IDEM_SANDBOX_PORT: String(config.sandbox.port),
      STRIPE_SECRET_KEY: config.payments.stripeSecretKey,
      IDEM_PROVIDER_TIMEOUT_MS: String(config.payments.providerTimeoutMs),
      IDEM_CURRENCIES: config.payments.currencies.join(','),
      IDEM_WEBHOOK_SECRET: config.payments.webhookSecret,
      IDEM_WORKER_CONCURRENCY: String(config.worker.concurrency),
      IDEM_JOB_POLL_INTERVAL: config.worker.jobPollMs,
      IDEM_DEAD_WORKER_SWEEP_INTERVAL: config.worker.deadWorkerSweepMs,
      IDEM_RECOVERY_INTERVAL: config.worker.recoveryIntervalMs,
      IDEM_RECOVERY_THRESHOLD: config.worker.recoveryThresholdMs,
      IDEM_RECOVERY_WINDOW: config.worker.recoveryWindowMs,
      IDEM_READY_MAX_PROJECTION_LAG: config.readiness.maxProjectionLagMs,
      LOG_LEVEL: config.logLevel,
    };
    // Durations compared as milliseconds: `24h` is the `1d` the config would print.
    const printed = Object.fromEntries(
      Object.entries(applied).map(([name, value]) => {
        const text = /^`([^`]*)`/.exec(documented.get(name) ?? '')?.[1];
        return [name, typeof value === 'number' && text !== undefined ? parseDuration(text) : text];
      }),
    );
    expect(printed).toEqual(applied);
  });
});
