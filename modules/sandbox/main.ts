import { createSandbox } from './index';

/**
 * Standalone sandbox (docker-compose, manual runs). The only place the sandbox reads the environment:
 * IDEM_SANDBOX_PORT (default 3100), IDEM_SANDBOX_HOST (default 127.0.0.1; 0.0.0.0 in a container),
 * IDEM_SANDBOX_WEBHOOK_URL + IDEM_SANDBOX_WEBHOOK_SECRET (both or neither), IDEM_SANDBOX_DATA_DIR (a
 * directory to keep the provider's state in across restarts; unset: memory only).
 */
async function main(): Promise<void> {
  const port = Number(process.env.IDEM_SANDBOX_PORT ?? 3100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`IDEM_SANDBOX_PORT is not a port: ${process.env.IDEM_SANDBOX_PORT}`);
  }
  const webhookUrl = process.env.IDEM_SANDBOX_WEBHOOK_URL;
  const webhookSecret = process.env.IDEM_SANDBOX_WEBHOOK_SECRET;
  if (Boolean(webhookUrl) !== Boolean(webhookSecret)) {
    throw new Error('Set both IDEM_SANDBOX_WEBHOOK_URL and IDEM_SANDBOX_WEBHOOK_SECRET, or neither.');
  }
  const sandbox = await createSandbox({
    port,
    host: process.env.IDEM_SANDBOX_HOST ?? '127.0.0.1',
    ...(process.env.IDEM_SANDBOX_DATA_DIR && { stateDir: process.env.IDEM_SANDBOX_DATA_DIR }),
    ...(webhookUrl && webhookSecret && { webhook: { url: webhookUrl, secret: webhookSecret } }),
  });
  console.log(`Stripe sandbox listening on ${sandbox.url} (any sk_test_… key; control API under /_sandbox)`);
  if (process.env.IDEM_SANDBOX_DATA_DIR) console.log(`Provider state kept in ${process.env.IDEM_SANDBOX_DATA_DIR}`);
  if (webhookUrl) console.log(`Signed webhooks go to ${webhookUrl}`);

  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
