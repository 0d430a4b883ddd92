import type { IdemConfig } from '../config/config';
import type { Runtime } from './runtime';

/** What a developer needs after `npm start`: where things are and how to call them. */
export function startupBanner({
  config,
  url,
  runtime,
  sandboxUrl,
  worker,
  featureLines = [],
}: {
  config: IdemConfig;
  url: string;
  runtime: Runtime;
  sandboxUrl?: string;
  worker?: string;
  /** What the features add (Feature.bannerLines). */
  featureLines?: string[];
}): string {
  const lines = [
    '',
    'Idem is running',
    `  api            ${url}   (health: /health/ready, metrics: /metrics, OpenAPI: /docs)`,
    runtime.embedded
      ? `  database       embedded PostgreSQL on 127.0.0.1:${runtime.embedded.port}, data in ${config.dataDir}\n` +
        `                 idem beside it: DATABASE_URL=${runtime.databaseUrl}`
      : `  database       ${redact(runtime.databaseUrl)}`,
    `  event store    ${config.eventStore.kind}`,
    sandboxUrl
      ? `  provider       Stripe-shaped sandbox at ${sandboxUrl}  (charges: ${sandboxUrl}/_sandbox/charges)`
      : `  provider       Stripe API ${config.payments.stripeApiBase ?? 'https://api.stripe.com'}`,
    worker
      ? `  worker         in this process (${worker}): projections, charge jobs, recovery every ${config.worker.recoveryIntervalMs / 60_000} min`
      : '  worker         not in this process (run dist/src/worker.js)',
    ...featureLines,
  ];
  if (config.devTokens) {
    lines.push('  dev tokens     Authorization: Bearer dev-storefront | dev-sync | dev-support | dev-auditor');
  }
  lines.push('  stop with Ctrl+C', '');
  return lines.join('\n');
}

function redact(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}
