import { minimumChargeMessage } from './minimum-charge';

describe('minimumChargeMessage', () => {
  it("names HUF's minimum in Stripe's two-decimal units, though Intl shows forints without decimals", () => {
    // Intl separates the code from the figure with a no-break space.
    expect(minimumChargeMessage('HUF')).toBe('amount must be at least 17500 (HUF\u00a0175.00), the smallest charge Stripe accepts in HUF');
  });

  it('names a zero-decimal currency without decimals (JPY: the amount is in yen)', () => {
    expect(minimumChargeMessage('JPY')).toBe('amount must be at least 50 (¥50), the smallest charge Stripe accepts in JPY');
  });

  it('names a two-decimal currency with its cents (EUR)', () => {
    expect(minimumChargeMessage('EUR')).toBe('amount must be at least 50 (€0.50), the smallest charge Stripe accepts in EUR');
  });

  it('names one whole króna for ISK, which Stripe takes only in multiples of 100 (it said "at least 1 minor unit")', () => {
    expect(minimumChargeMessage('ISK')).toBe('amount must be at least 100 (ISK\u00a01.00), the smallest charge Stripe accepts in ISK');
  });
});
