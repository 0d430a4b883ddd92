/**
 * Child process of deliveries-in-flight.int.spec.ts: Node reports a listener leak through the real
 * process's 'warning' event, which a jest test does not see. Sends `count` charges whose webhooks go to
 * an endpoint that never answers, waits until every delivery is held there, and reports the warnings.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chargeParams, startSandbox, stripeFor } from '../sandbox.fixture';

async function main(): Promise<void> {
  const count = Number(process.env.DELIVERIES);
  const warnings: string[] = [];
  process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
  const held: ServerResponse[] = [];
  let all: () => void = () => undefined;
  const allHeld = new Promise<void>((resolve) => (all = resolve));
  const silent = createServer((_request, response) => {
    held.push(response);
    if (held.length === count) all();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhooks`;
  const { sandbox } = await startSandbox({ webhook: { url, secret: 'whsec_x', timeoutMs: 60_000 } });
  const stripe = stripeFor(sandbox);
  await Promise.all(Array.from({ length: count }, (_, i) => stripe.paymentIntents.create(chargeParams(`in-flight-${i}`))));
  await allHeld;
  // Node emits its warning on a later tick than the listener that passed the limit.
  await new Promise((resolve) => setTimeout(resolve, 0));
  process.stdout.write(`${JSON.stringify({ event: 'held', deliveries: held.length, warnings })}\n`);
  await sandbox.close();
  for (const response of held) response.destroy();
  silent.closeAllConnections();
  silent.close();
}

void main();
