/**
 * The OpenAPI schema of a charge's `amount` states what the body's rules accept. For ISK it said `minimum: 1`
 * ("ISK 1–99999999 in steps of 100"), yet Stripe takes ISK only in whole krónur — multiples of 100
 * (support.stripe.com/questions/deprecation-of-fractional-isk-charges-and-refunds) — and the body refuses 1.
 */
import { validate } from 'class-validator';
import { ChargeRequestBody } from './charge-request.body';
import { acceptedAmountsOf, documentedAmount } from './documented-amount';

const accepts = async (currency: string, amount: number) =>
  (await validate(Object.assign(new ChargeRequestBody(), { currency, amount, customerId: 'cus_1' }))).length === 0;

describe('documentedAmount', () => {
  describe('for a service that charges in ISK only', () => {
    it('states whole krónur: minimum 100, multipleOf 100, at most 99999900', () => {
      expect(documentedAmount(['ISK'])).toMatchObject({
        minimum: 100,
        maximum: 99_999_900,
        multipleOf: 100,
        description: expect.stringContaining('ISK 100–99999900 in steps of 100'),
      });
    });
  });

  describe('for currencies with different steps', () => {
    it('states the smallest amount any of them takes and the step they all share', () => {
      expect(documentedAmount(['ISK', 'KWD'])).toMatchObject({ minimum: 10, multipleOf: 10 });
      const withEur = documentedAmount(['EUR', 'ISK']);
      expect(withEur).toMatchObject({ minimum: 50, maximum: 99_999_999 });
      expect(withEur).not.toHaveProperty('multipleOf');
    });
  });

  it.each(['ISK', 'KWD', 'EUR', 'HUF', 'JPY', 'IDR'])('states for %s the very range the body accepts', async (currency) => {
    const { smallest, largest, step } = acceptedAmountsOf(currency);
    expect(await accepts(currency, smallest)).toBe(true);
    expect(await accepts(currency, largest)).toBe(true);
    expect(await accepts(currency, smallest - 1)).toBe(false);
    expect(await accepts(currency, largest + step)).toBe(false);
    if (step > 1) expect(await accepts(currency, smallest + 1)).toBe(false);
  });
});
