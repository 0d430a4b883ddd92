/**
 * The reason recovery gives for one order (printed by `idem recover`, answered to support's reconcile,
 * written to the recovery log): when the recovery sent the order to review, it says so with the
 * review's reason.
 */
import { withOutcome } from './reconcile-order';

describe('withOutcome', () => {
  describe('when recovering an order sends it to review', () => {
    it("says so beside how it was recovered, with the review's reason", () => {
      expect(withOutcome('verified with the provider', 'unknown', 'needs_review', 'five unknown outcomes in a row')).toBe(
        'verified with the provider; it now needs review: five unknown outcomes in a row',
      );
    });
  });

  describe('when the order ends in another status, or was in review already', () => {
    it('leaves the reason as it is', () => {
      expect(withOutcome('verified with the provider', 'unknown', 'paid', undefined)).toBe('verified with the provider');
      expect(withOutcome('nothing to recover (needs_review)', 'needs_review', 'needs_review', 'x')).toBe(
        'nothing to recover (needs_review)',
      );
    });
  });
});
