import type { IdemConfig } from '../config/config';
import { formatDuration } from '../config/duration';
import { redact } from './redact';
import type { Runtime } from './runtime';

/** What a developer needs after `npm start`: where things are and how to call them. */
export function startupBanner({
  config,
  url,
  runtime,
  sandboxUrl,
  worker,
  featureLines = [],
  cliEnvironment = {},
}: {
  config: IdemConfig;
  url: string;
  runtime: Runtime;
  sandboxUrl?: string;
  worker?: string;
  /** What the features add (Feature.bannerLines). */
  featureLines?: string[];
  /** What an `idem` command needs besides DATABASE_URL to reach this instance (Feature.cliEnvironment). */
  cliEnvironment?: Record<string, string>;
}): string {
  const { kind, esdbConnectionString } = config.eventStore;
  // On EventStoreDB the events are not in the database: an idem beside it needs the store's address too,
  // or it would open the database's own (empty) event store.
  const storeEnvironment: Record<string, string> =
    kind === 'esdb' && esdbConnectionString ? { EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: esdbConnectionString } : {};
  const cliVariables = Object.entries({ ...storeEnvironment, ...cliEnvironment }).map(
    ([name, value]) => ` ${name}=${shellWord(redact(value))}`,
  );
  const lines = [
    '',
    'Idem is running',
    `  api            ${url}   (health: /health/ready, metrics: /metrics, OpenAPI: /docs)`,
    runtime.embedded
      ? `  database       embedded PostgreSQL on 127.0.0.1:${runtime.embedded.port}, data in ${config.dataDir}\n` +
        `                 idem beside it: DATABASE_URL=${shellWord(runtime.databaseUrl)}${cliVariables.join('')}`
      : `  database       ${redact(runtime.databaseUrl)}` +
        (cliVariables.length ? `\n                 idem beside it: this DATABASE_URL,${cliVariables.join('')}` : ''),
    kind === 'esdb' && esdbConnectionString
      ? `  event store    EventStoreDB at ${redact(esdbConnectionString)}`
      : `  event store    ${kind} (the database above)`,
    sandboxUrl
      ? `  provider       Stripe-shaped sandbox at ${sandboxUrl}  (charges: ${sandboxUrl}/_sandbox/charges)`
      : `  provider       Stripe API ${config.payments.stripeApiBase ?? 'https://api.stripe.com'}`,
    worker
      ? `  worker         in this process (${worker}): projections, charge jobs, recovery every ${formatDuration(config.worker.recoveryIntervalMs)}`
      : '  worker         not in this process (run dist/src/worker.js)',
    ...featureLines,
  ];
  if (config.devTokens) {
    lines.push('  dev tokens     Authorization: Bearer dev-storefront | dev-sync | dev-support | dev-auditor');
  }
  lines.push('  stop with Ctrl+C', '');
  return lines.join('\n');
}

/**
 * A value as the "idem beside it" line is pasted into a shell: as it is when every character is plain,
 * else in single quotes (a `?` in a connection string stops zsh with "no matches found").
 */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
