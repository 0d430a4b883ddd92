/** The recovery sweep's log lines, counted right for one order and for many ("1 order", "2 orders", never "order(s)"). */
import type { ReconcileResult } from './reconcile-order';
import { sweepFailuresLine, sweepSummaryLine } from './recover-stuck-charges.job';

const failure = (orderId: string): ReconcileResult => ({
  orderId,
  oldStatus: 'unknown',
  newStatus: 'unknown',
  reason: 'recovery failed: boom',
  error: 'boom',
});

describe('the recovery sweep', () => {
  describe('when orders could not be recovered', () => {
    it('counts one order as "1 order"', () => {
      expect(sweepFailuresLine([failure('o-1')], 1)).toBe(
        'recovery sweep: 1 order of 1 could not be recovered, left stuck for the next sweep: o-1 (boom)',
      );
    });

    it('counts several as "orders"', () => {
      expect(sweepFailuresLine([failure('o-1'), failure('o-2')], 5)).toBe(
        'recovery sweep: 2 orders of 5 could not be recovered, left stuck for the next sweep: o-1 (boom); o-2 (boom)',
      );
    });
  });

  describe('when it closes', () => {
    it.each([
      [1, 'recovery looked at 1 stuck order'],
      [3, 'recovery looked at 3 stuck orders'],
    ])('says how many orders it looked at (%i)', (n, line) => {
      expect(sweepSummaryLine(n)).toBe(line);
    });
  });
});
