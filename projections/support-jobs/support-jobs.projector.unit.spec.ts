import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { foldReadModel, rowKey } from '../../src/subscriptions/read-models/read-model';
import { importRunJobId, supportJobsReadModel } from './support-jobs.projector';

const RUN_ID = 'run.7';
const REASON = 'page at cursor c200 failed 5 times in a row: sandbox CRM fault: error_500';

let revision = 0;
function recorded(stream: string, type: string, data: Record<string, unknown>): RecordedEvent {
  const at = `2026-02-01T10:00:0${revision}.000Z`;
  return {
    id: `00000000-0000-4000-8000-00000000000${revision}`,
    stream,
    revision: revision++,
    position: `1/${revision}` as RecordedEvent['position'],
    type,
    data,
    metadata: { correlationId: RUN_ID, causationId: RUN_ID, actor: { role: 'sync', tokenId: 't' }, recordedAt: at },
    created: new Date(at),
  };
}

const onRun = (type: string, data: Record<string, unknown> = {}) => recorded(`import-${RUN_ID}`, type, { runId: RUN_ID, ...data });
const started = () => onRun('ImportRunStarted', { source: 'crm', startedBy: 'sync', kind: 'pull' });
const firstPage = () => onRun('ImportPageFetched', { cursor: null, nextCursor: 'c200', records: 200 });
const needsReview = () => onRun('ImportRunNeedsReview', { reason: REASON });
const runJobKey = rowKey(supportJobsReadModel, { jobId: importRunJobId(RUN_ID) });
const jobAfter = (events: RecordedEvent[]) => foldReadModel(supportJobsReadModel, events).get(runJobKey);

beforeEach(() => {
  revision = 0;
});

describe('support_jobs projector', () => {
  describe('when a stop rule ends an import run', () => {
    it('shows the run as needing review, with the reason as its last error', () => {
      expect(jobAfter([started(), firstPage(), needsReview()])).toMatchObject({
        jobId: `import-run:${RUN_ID}`,
        kind: 'import-run',
        requestId: RUN_ID,
        externalReference: 'crm',
        status: 'needs_review',
        lastError: REASON,
        lastRetryAt: null,
        updatedAt: new Date('2026-02-01T10:00:02.000Z'),
        revision: 2,
      });
    });

    it('is found by the X-Request-Id of the call that started it, though its events correlate by the run id', () => {
      const first = started();
      const overHttp = { ...first, metadata: { ...first.metadata, requestId: 'req-started-it' } };
      expect(jobAfter([overHttp, firstPage()])).toMatchObject({ requestId: 'req-started-it' });
    });

    it('keeps it where a charge in review is kept: the same status and the reason in the same column', () => {
      const charge = [
        recorded('order-481', 'ChargeRequested', { orderId: '481', amount: 1299, currency: 'EUR', customerId: 'cus_7' }),
        recorded('order-481', 'ChargeNeedsReview', { orderId: '481', reason: REASON }),
      ];
      const rows = [...foldReadModel(supportJobsReadModel, [...charge, started(), needsReview()]).values()];
      expect(rows.map((row) => [row.kind, row.status, row.lastError])).toEqual([
        ['charge-order', 'needs_review', REASON],
        ['import-run', 'needs_review', REASON],
      ]);
    });
  });

  describe('when a charge goes to review', () => {
    const ORDER = 'order-3ds';
    const requested = () => recorded(ORDER, 'ChargeRequested', { orderId: '3ds', amount: 1299, currency: 'EUR', customerId: 'cus_7' });
    const chargeJob = (events: RecordedEvent[]) =>
      foldReadModel(supportJobsReadModel, events).get(rowKey(supportJobsReadModel, { jobId: 'charge-order:3ds' }));

    it('shows the payment intent a 3-D Secure case names in its reason as the provider reference', () => {
      const reason =
        'customer action required: authentication_required: the customer must authenticate (3-D Secure) on session; ' +
        'payment intent pi_3dsAbc: Your card was declined. This transaction requires authentication.';
      const events = [requested(), recorded(ORDER, 'ChargeNeedsReview', { orderId: '3ds', reason })];
      expect(chargeJob(events)).toMatchObject({ status: 'needs_review', externalReference: 'pi_3dsAbc' });
    });

    it('shows the payment the review names in its field', () => {
      const first = requested();
      const review = recorded(ORDER, 'ChargeNeedsReview', {
        orderId: '3ds',
        reason: 'a payment Idem did not ask for',
        paymentIntentId: 'pi_x',
      });
      expect(chargeJob([first, review])).toMatchObject({ externalReference: 'pi_x' });
    });

    it("keeps the reference the job already shows (a paid order's charge, not the second payment that sent it to review)", () => {
      const first = requested();
      const paid = recorded(ORDER, 'ChargeSucceeded', { orderId: '3ds', paymentIntentId: 'pi_1', providerChargeId: 'ch_1', amount: 1299 });
      const second = recorded(ORDER, 'ChargeNeedsReview', { orderId: '3ds', reason: 'second payment pi_2', paymentIntentId: 'pi_2' });
      expect(chargeJob([first, paid, second])).toMatchObject({ status: 'needs_review', externalReference: 'ch_1' });
    });

    it('shows no last error once support resolves the review as paid, and keeps the reason when it resolves it as failed', () => {
      const review = () => recorded(ORDER, 'ChargeNeedsReview', { orderId: '3ds', reason: REASON });
      const resolved = (resolution: 'paid' | 'failed') =>
        recorded(ORDER, 'ChargeReviewResolved', { orderId: '3ds', actor: 'support:t', note: 'checked at the provider', resolution });
      expect(chargeJob([requested(), review(), resolved('paid')])).toMatchObject({ status: 'done', lastError: null });
      revision = 0;
      expect(chargeJob([requested(), review(), resolved('failed')])).toMatchObject({ status: 'failed', lastError: REASON });
    });
  });

  describe('when someone resumes the run', () => {
    it('is pending again, retried at the resume, and keeps the reason until the run completes', () => {
      const events = [started(), firstPage(), needsReview(), onRun('ImportRunResumed', { by: 'support' })];
      expect(jobAfter(events)).toMatchObject({
        status: 'pending',
        lastError: REASON,
        lastRetryAt: new Date('2026-02-01T10:00:03.000Z'),
        revision: 3,
      });
      events.push(onRun('ImportRunCompleted', { counts: { imported: 400 } }));
      expect(jobAfter(events)).toMatchObject({ status: 'done', lastError: null, revision: 4 });
    });
  });

  it('ignores a review it has already reflected (a replayed delivery)', () => {
    const events = [started(), needsReview()];
    const row = jobAfter(events)!;
    expect(supportJobsReadModel.evolve(row, events[1])).toBe(row);
  });
});
