import Stripe from 'stripe';
import { signatureHeader } from './signature';

describe('signatureHeader', () => {
  const stripe = new Stripe('sk_test_x');

  it("equals the header stripe-node's own test helper computes for the same payload, secret and time", () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });

    const expected = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_1', timestamp: 1_700_000_000 });

    expect(signatureHeader(payload, 'whsec_1', 1_700_000_000)).toBe(expected);
  });

  it('is accepted by constructEvent with a receivedAt inside the 300 s tolerance and refused outside it', () => {
    const payload = JSON.stringify({ id: 'evt_2', object: 'event' });
    const header = signatureHeader(payload, 'whsec_2', 1_700_000_000);

    expect(stripe.webhooks.constructEvent(payload, header, 'whsec_2', undefined, undefined, 1_700_000_300_000).id).toBe('evt_2');
    expect(() => stripe.webhooks.constructEvent(payload, header, 'whsec_2', undefined, undefined, 1_700_000_301_000)).toThrow(/tolerance/);
  });
});
