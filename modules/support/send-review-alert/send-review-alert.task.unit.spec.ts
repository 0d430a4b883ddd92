import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobHelpers } from 'graphile-worker';
import type { ReviewAlert } from './review-alert';
import { sendReviewAlertTask } from './send-review-alert.task';
import { isExpectedRetry } from '../../../src/jobs/job-log';

const alert: ReviewAlert = {
  alert: 'needs_review',
  kind: 'charge-order',
  orderId: 'o-1',
  reason: 'contradictory provider data',
  eventId: 'e-1',
  stream: 'order-o-1',
  revision: 3,
  recordedAt: '2026-12-01T20:00:00.000Z',
};
const helpers = {} as JobHelpers;

/** A receiver that keeps the bodies it is sent and answers `status`, or never answers when `status` is undefined. */
async function receiver(status: number | undefined): Promise<{ url: string; server: Server; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      if (status !== undefined) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server, bodies };
}

const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the send-review-alert job', () => {
  it('ends when the webhook answers 2xx, having sent it the alert', async () => {
    const { url, server, bodies } = await receiver(202);
    try {
      await expect(sendReviewAlertTask({ alerts: { webhookUrl: url, webhookSecret: undefined } })(alert, helpers)).resolves.toBeUndefined();
      expect(bodies.map((body) => JSON.parse(body))).toEqual([alert]);
    } finally {
      await closed(server);
    }
  });

  it('throws, naming the event and the host, when the webhook cannot be reached', async () => {
    const { url, server } = await receiver(204);
    await closed(server);
    const send = sendReviewAlertTask({ alerts: { webhookUrl: url, webhookSecret: undefined } });
    const failure = Promise.resolve(send(alert, helpers));
    await expect(failure).rejects.toThrow(
      `review alert for order-o-1@3 (event e-1) not delivered to ${new URL(url).host}: fetch failed: ECONNREFUSED`,
    );
    // Retried by the queue and said in one warning line, not an error with its stack (src/jobs/job-log.ts).
    expect(isExpectedRetry(await failure.catch((error: unknown) => error))).toBe(true);
  });

  it('throws when the webhook does not answer within the timeout', async () => {
    const { url, server } = await receiver(undefined);
    try {
      const send = sendReviewAlertTask({ alerts: { webhookUrl: url, webhookSecret: undefined }, timeoutMs: 200 });
      await expect(send(alert, helpers)).rejects.toThrow(/not delivered to 127\.0\.0\.1:\d+: .*timeout/);
    } finally {
      server.closeAllConnections();
      await closed(server);
    }
  });

  it('leaves the job for a retry in a worker that has no URL', async () => {
    const send = sendReviewAlertTask({ alerts: { webhookUrl: undefined, webhookSecret: undefined } });
    const failure = Promise.resolve(send(alert, helpers));
    await expect(failure).rejects.toThrow('IDEM_ALERT_WEBHOOK_URL is not set in this worker');
    // A worker set up without what it needs is an error the log keeps with its stack.
    expect(isExpectedRetry(await failure.catch((error: unknown) => error))).toBe(false);
  });
});
