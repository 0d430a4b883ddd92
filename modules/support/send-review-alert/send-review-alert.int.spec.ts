/**
 * The stop rules' alert webhook against a real receiver (node:http on a free port): a charge driven to
 * needs_review and an import run stopped for review each lead to exactly one signed delivery; a
 * receiver answering 500 gets it again; with no URL configured nothing is queued at all.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from 'graphile-worker';
import Stripe from 'stripe';
import { driveRun, contactSourcesAt, startRun } from '../../contacts';
import { importStream } from '../../contacts/contact.events';
import { orderStream } from '../../payments/order.events';
import type { IdemConfig } from '../../../src/config/config';
import { compareCheckpoints, type Checkpoint } from '../../../src/event-store/checkpoint';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import { installJobQueue } from '../../../src/jobs/install-job-queue';
import { startJobWorker, type JobWorker } from '../../../src/jobs/job-worker';
import { startProjections, type RunningProjections } from '../../../src/subscriptions/start-projections';
import { orderInReview, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { waitUntil } from '../../../test/harness/wait-until';
import { reviewAlertReactor } from './review-alert.reactor';
import { SEND_REVIEW_ALERT_TASK } from './review-alert.payload';
import { sendReviewAlertTask } from './send-review-alert.task';

const SECRET = 'alert-signing-secret';

interface Delivery {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  answeredWith: number;
}

/** Records every POST; answers each status of `failures` once, in order, then 204. */
class AlertReceiver {
  readonly deliveries: Delivery[] = [];
  readonly failures: number[] = [];
  private readonly server: Server = createServer((request, response) => {
    let rawBody = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (rawBody += chunk));
    request.on('end', () => {
      const answeredWith = this.failures.shift() ?? 204;
      this.deliveries.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) as Record<string, unknown>, answeredWith });
      response.writeHead(answeredWith).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/idem`;
  }

  about = (eventId: string) => this.deliveries.filter((delivery) => delivery.body.eventId === eventId);

  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
}

let cases: SupportCases;
let receiver: AlertReceiver;
let webhookUrl: string;
let projections: RunningProjections | undefined;
let jobs: JobWorker | undefined;
/** What the job queue logged at error level. */
const errorLines: string[] = [];
const jobLogger = new Logger(() => (level, message) => void (level === 'error' && errorLines.push(message)));

const store = () => cases.harness.runtime.eventStore;
const pool = () => cases.harness.runtime.pool;

/** The alert reactor and the alert job, as a worker configured with `alerts` runs them. */
async function runAlerts(alerts: IdemConfig['alerts']): Promise<void> {
  projections = await startProjections({ store: store(), pool: pool(), readModels: [], reactors: [reviewAlertReactor(alerts)] });
  const taskList = { [SEND_REVIEW_ALERT_TASK]: sendReviewAlertTask({ alerts }) };
  jobs = await startJobWorker({ pool: pool(), taskList, pollIntervalMs: 100, logger: jobLogger });
}

async function stopAlerts(): Promise<void> {
  await jobs?.stop();
  await projections?.stop();
  jobs = projections = undefined;
}

const alertJobsQueued = async () =>
  Number(
    (await pool().query(`SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE key LIKE $1`, [`${SEND_REVIEW_ALERT_TASK}:%`]))
      .rows[0].n,
  );

async function needsReviewEventOf(stream: string) {
  const event = (await store().readStream(stream)).find((e) => e.type.endsWith('NeedsReview'));
  if (!event) throw new Error(`${stream} has no needs-review event`);
  return event;
}

/** Waits until the alert reactor's checkpoint is at or past `event`. */
async function reactorPast(event: RecordedEvent): Promise<void> {
  const checkpoint = async () =>
    (
      await pool().query(`SELECT checkpoint FROM projection_checkpoints WHERE name = $1`, [
        reviewAlertReactor({ webhookUrl: undefined, webhookSecret: undefined }).name,
      ])
    ).rows[0]?.checkpoint as Checkpoint | null | undefined;
  await waitUntil(checkpoint, (at) => !!at && compareCheckpoints(at, event.position) >= 0, 30_000);
}

/** The body the alert of `event` must have, written out here rather than by the code under test. */
const expectedAlert = (event: RecordedEvent, kind: string, subject: { orderId: string } | { runId: string }) => ({
  alert: 'needs_review',
  kind,
  ...subject,
  reason: event.data.reason,
  eventId: event.id,
  stream: event.stream,
  revision: event.revision,
  recordedAt: event.metadata.recordedAt,
});

/** Waits for `count` deliveries of `event`'s alert and for its job to end; then there must be exactly that many. */
async function deliveriesOf(event: RecordedEvent, count: number): Promise<Delivery[]> {
  await waitUntil(
    async () => receiver.about(event.id),
    (found) => found.length >= count,
    30_000,
  );
  await waitUntil(alertJobsQueued, (queued) => queued === 0, 30_000);
  const deliveries = receiver.about(event.id);
  expect(deliveries).toHaveLength(count);
  return deliveries;
}

function expectSigned(delivery: Delivery): void {
  const header = delivery.headers['idem-signature'];
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(Stripe.webhooks.signature!.verifyHeader(delivery.rawBody, header as string, SECRET, 300)).toBe(true);
}

beforeAll(async () => {
  cases = await startSupportCases('review_alerts');
  await installJobQueue(pool());
  receiver = new AlertReceiver();
  webhookUrl = await receiver.listen();
});

afterAll(async () => {
  await stopAlerts();
  await receiver.close();
  await cases.close();
});

describe('the review alert webhook', () => {
  let orderBeforeTheUrl: string;

  describe('with no URL configured', () => {
    afterAll(stopAlerts);

    it('queues nothing for a charge in review', async () => {
      await runAlerts({ webhookUrl: undefined, webhookSecret: undefined });
      orderBeforeTheUrl = await orderInReview(cases);
      // Past this very event: "no lag" alone can be read while the event is not yet settled for readers.
      await reactorPast(await needsReviewEventOf(orderStream(orderBeforeTheUrl)));
      expect(await alertJobsQueued()).toBe(0);
      expect(receiver.deliveries).toEqual([]);
    });
  });

  describe('with a URL and a secret', () => {
    beforeAll(() => runAlerts({ webhookUrl, webhookSecret: SECRET }));

    it('sends a charge in review once, signed, with the order, the reason and where the event is', async () => {
      const orderId = await orderInReview(cases);
      const event = await needsReviewEventOf(orderStream(orderId));
      expect(event.stream).toBe(`order-${orderId}`);
      const [delivery] = await deliveriesOf(event, 1);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.body).toEqual(expectedAlert(event, 'charge-order', { orderId }));
      expectSigned(delivery);
      // The reactor went past the case raised while no URL was set: configuring one does not replay it.
      expect(receiver.deliveries.filter((d) => d.body.orderId === orderBeforeTheUrl)).toEqual([]);
    });

    it('sends an import run stopped for review once, signed, with the run and the reason', async () => {
      const crm = `${cases.harness.sandbox.url}/crm/_control`;
      const control = (path: string, body: unknown) =>
        fetch(`${crm}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await control('reset', { size: 30 });
      await control('faults', { page: 1, kind: 'error_500' });
      const metadata = { correlationId: 'alerts', causationId: 'alerts', actor: { role: 'sync', tokenId: 'test' } };
      const runId = await startRun(store(), { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);
      const stopped = await driveRun(
        { store: store(), sources: contactSourcesAt(cases.harness.sandbox.url), backoffMs: 5, metadata },
        runId,
      );
      expect(stopped.status).toBe('needs_review');

      const event = await needsReviewEventOf(importStream(runId));
      expect(event.stream).toBe(`import-${runId}`);
      const [delivery] = await deliveriesOf(event, 1);
      expect(delivery.body).toEqual(expectedAlert(event, 'import-run', { runId }));
      expectSigned(delivery);
    });

    it('logs what failed and delivers again, signed again, after the receiver answered 500', async () => {
      receiver.failures.push(500);
      const orderId = await orderInReview(cases);
      const event = await needsReviewEventOf(orderStream(orderId));
      // graphile-worker's first retry comes about e¹ ≈ 2.7 s after the failure.
      const deliveries = await deliveriesOf(event, 2);
      expect(deliveries.map((d) => d.answeredWith)).toEqual([500, 204]);
      expect(deliveries[1].rawBody).toBe(deliveries[0].rawBody);
      deliveries.forEach(expectSigned);
      const failure = errorLines.filter((line) => line.includes(event.id));
      expect(failure).toEqual([expect.stringContaining(`review alert for order-${orderId}@${event.revision}`)]);
      expect(failure[0]).toContain(`refused by 127.0.0.1:${new URL(webhookUrl).port}: HTTP 500`);
    });
  });
});
