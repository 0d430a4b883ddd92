/**
 * The charge job's failures that its retry resolves are marked for the job log, which says each in one
 * warning line instead of graphile-worker's error with its stack (src/jobs/job-log.ts): a provider that
 * did not answer was logged as an error with the whole stack on every attempt.
 */
import { isExpectedRetry } from '../../../src/jobs/job-log';
import { ChargeOrderContended, ChargeOutcomeStillUnknown, ChargeStillProcessing, PaymentMethodLookupFailed } from './charge-order.job';

describe("the charge job's failures", () => {
  it('that its retry resolves are expected retries', () => {
    expect(isExpectedRetry(new ChargeOutcomeStillUnknown('481', 'provider unreachable'))).toBe(true);
    expect(isExpectedRetry(new ChargeStillProcessing('481', 'a bank debit settles later'))).toBe(true);
    expect(isExpectedRetry(new PaymentMethodLookupFailed('481', 'timeout'))).toBe(true);
    expect(isExpectedRetry(new ChargeOrderContended('481'))).toBe(true);
  });

  it('that nobody expected are not', () => {
    expect(isExpectedRetry(new TypeError("Cannot read properties of undefined (reading 'amount')"))).toBe(false);
  });
});
