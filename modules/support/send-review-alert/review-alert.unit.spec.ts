import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import { reviewAlertOf } from './review-alert';
import { signatureHeaders, SIGNATURE_HEADER } from './review-alert.signature';

const recorded = (stream: string, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: '5b0c1a52-7d3e-4c4b-9a57-0c6f2f1d8e11',
  stream,
  revision: 4,
  position: '0/42' as RecordedEvent['position'],
  type,
  data,
  metadata: { correlationId: 'c', causationId: 'c', actor: { role: 'worker', tokenId: 'w' }, recordedAt: '2026-12-01T20:00:00.000Z' },
  created: new Date('2026-12-01T20:00:00.050Z'),
});

describe('the review alert body', () => {
  it('names the order, the reason and where the event is, for a charge in review', () => {
    const event = recorded('order-o-1', 'ChargeNeedsReview', { orderId: 'o-1', reason: '5 consecutive unknown outcomes' });
    expect(JSON.stringify(reviewAlertOf(event))).toBe(
      JSON.stringify({
        alert: 'needs_review',
        kind: 'charge-order',
        orderId: 'o-1',
        reason: '5 consecutive unknown outcomes',
        eventId: '5b0c1a52-7d3e-4c4b-9a57-0c6f2f1d8e11',
        stream: 'order-o-1',
        revision: 4,
        recordedAt: '2026-12-01T20:00:00.000Z',
      }),
    );
  });

  it('names the run for an import run stopped for review', () => {
    const event = recorded('import-r-9', 'ImportRunNeedsReview', { runId: 'r-9', reason: 'page 2 failed 5 times in a row' });
    expect(reviewAlertOf(event)).toEqual({
      alert: 'needs_review',
      kind: 'import-run',
      runId: 'r-9',
      reason: 'page 2 failed 5 times in a row',
      eventId: event.id,
      stream: 'import-r-9',
      revision: 4,
      recordedAt: '2026-12-01T20:00:00.000Z',
    });
  });

  it('is not raised by any other event', () => {
    expect(reviewAlertOf(recorded('order-o-1', 'ChargeFailed', { orderId: 'o-1', reason: 'declined' }))).toBeUndefined();
    expect(reviewAlertOf(recorded('import-r-9', 'ImportRunFailed', { runId: 'r-9', error: 'gone' }))).toBeUndefined();
  });
});

describe('the review alert signature', () => {
  const body = '{"alert":"needs_review"}';
  const now = new Date('2026-12-01T20:00:07.900Z');

  it('is Stripe-style: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with the secret', () => {
    const expected = createHmac('sha256', 'alert-secret').update(`1796155207.${body}`).digest('hex');
    expect(signatureHeaders(body, 'alert-secret', now)).toEqual({ [SIGNATURE_HEADER]: `t=1796155207,v1=${expected}` });
  });

  it("passes a Stripe webhook library's check, and fails it for another body or secret", () => {
    const header = signatureHeaders(body, 'alert-secret', new Date())[SIGNATURE_HEADER];
    expect(Stripe.webhooks.signature!.verifyHeader(body, header, 'alert-secret', 300)).toBe(true);
    expect(() => Stripe.webhooks.signature!.verifyHeader(`${body} `, header, 'alert-secret', 300)).toThrow();
    expect(() => Stripe.webhooks.signature!.verifyHeader(body, header, 'another-secret', 300)).toThrow();
  });

  it('is left out when no secret is configured', () => {
    expect(signatureHeaders(body, undefined, now)).toEqual({});
  });
});
