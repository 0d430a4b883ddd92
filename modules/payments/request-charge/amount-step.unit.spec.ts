import { amountStepMessage } from './amount-step';
import { stripeAmountStepOf } from './stripe-minor-units';

describe('stripeAmountStepOf', () => {
  it.each([
    ['ISK', 100],
    ['KWD', 10],
    ['BHD', 10],
    ['JOD', 10],
    ['OMR', 10],
    ['TND', 10],
    ['EUR', 1],
    ['HUF', 1],
    ['JPY', 1],
  ])('takes %s amounts in steps of %d', (currency, step) => {
    expect(stripeAmountStepOf(currency)).toBe(step);
  });
});

describe('amountStepMessage', () => {
  it('says why: whole krónur for ISK, a last decimal of 0 for a three-decimal currency', () => {
    expect(amountStepMessage('ISK', 100)).toBe('amount must be a multiple of 100 in ISK (whole krónur): Stripe refuses other amounts');
    expect(amountStepMessage('KWD', 10)).toBe(
      'amount must be a multiple of 10 in KWD (the last of its three decimals 0): Stripe refuses other amounts',
    );
  });
});
