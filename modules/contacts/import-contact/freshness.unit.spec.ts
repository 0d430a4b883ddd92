import type { Freshness } from '../contact.events';
import { compareFreshness } from './freshness';

const at = (sourceUpdatedAt: string, checksum = 'aaa', sourceEventId?: string): Freshness => ({
  sourceUpdatedAt,
  checksum,
  ...(sourceEventId ? { sourceEventId } : {}),
});
const v = (sourceVersion: number, more: Partial<Freshness> = {}): Freshness => ({ sourceVersion, checksum: 'aaa', ...more });

describe('compareFreshness', () => {
  describe('when both records give only updatedAt', () => {
    it('orders them below the millisecond, whichever arrives first', () => {
      const early = at('2026-12-01T10:00:00.100001Z', 'zzz');
      const late = at('2026-12-01T10:00:00.100900Z', 'aaa');
      expect(compareFreshness(late, early)).toBe('fresher');
      expect(compareFreshness(early, late)).toBe('older');
    });

    it('compares fractions of different lengths by their value', () => {
      expect(compareFreshness(at('2026-12-01T10:00:00.1000001Z'), at('2026-12-01T10:00:00.1Z', 'zzz'))).toBe('fresher');
      expect(compareFreshness(at('2026-12-01T10:00:00.09Z', 'zzz'), at('2026-12-01T10:00:00.1Z'))).toBe('older');
      expect(compareFreshness(at('2026-12-01T10:00:00.999999999Z'), at('2026-12-01T10:00:01Z', 'zzz'))).toBe('older');
    });

    it('normalises offsets to UTC before comparing', () => {
      expect(compareFreshness(at('2026-12-01T11:00:00.000002+01:00'), at('2026-12-01T10:00:00.000001Z', 'zzz'))).toBe('fresher');
      expect(compareFreshness(at('2026-12-01T04:29:59.9999999-05:30', 'zzz'), at('2026-12-01T10:00:00Z'))).toBe('older');
    });

    it('takes equal instants spelled differently as a tie, settled by checksum then event id', () => {
      const spellings = ['2026-12-01T10:00:00.1Z', '2026-12-01T10:00:00.100000000Z', '2026-12-01T11:00:00.100+01:00'];
      for (const a of spellings) {
        for (const b of spellings) {
          expect(compareFreshness(at(a, 'bbb'), at(b, 'aaa'))).toBe('fresher');
          expect(compareFreshness(at(a, 'aaa', 'e1'), at(b, 'aaa', 'e2'))).toBe('older');
          expect(compareFreshness(at(a, 'aaa', 'e1'), at(b, 'aaa', 'e1'))).toBe('same');
        }
      }
    });
  });

  describe('when only one record gives a version', () => {
    it('ranks the record without a version below it, however late its updatedAt', () => {
      const versioned = v(2, { sourceUpdatedAt: '2026-01-01T00:00:00Z', checksum: 'aaa' });
      const timed = at('2030-01-01T00:00:00Z', 'zzz');
      expect(compareFreshness(timed, versioned)).toBe('older');
      expect(compareFreshness(versioned, timed)).toBe('fresher');
      expect(compareFreshness(timed, v(0))).toBe('older');
    });

    it('ranks a record with neither version nor updatedAt below both kinds', () => {
      const bare: Freshness = { checksum: 'zzz' };
      expect(compareFreshness(bare, v(1))).toBe('older');
      expect(compareFreshness(bare, at('1970-01-01T00:00:00Z'))).toBe('older');
      expect(compareFreshness(at('1970-01-01T00:00:00Z'), bare)).toBe('fresher');
    });
  });

  describe('when neither record gives a version', () => {
    it('ranks a record without updatedAt below one with it', () => {
      expect(compareFreshness({ checksum: 'zzz', sourceEventId: 'z' }, at('2026-12-01T10:00:00Z'))).toBe('older');
    });

    it('falls back to arrival only when neither gives updatedAt either', () => {
      expect(compareFreshness({ checksum: 'aaa' }, { checksum: 'bbb' })).toBe('fresher');
      expect(compareFreshness({ checksum: 'bbb' }, { checksum: 'aaa' })).toBe('fresher');
      expect(compareFreshness({ checksum: 'aaa' }, { checksum: 'aaa' })).toBe('same');
    });
  });

  describe('when both records give the same version', () => {
    it('calls another checksum a conflict, whatever the updatedAt', () => {
      expect(compareFreshness(v(3, { checksum: 'bbb', sourceUpdatedAt: '2027-01-01T00:00:00Z' }), v(3))).toBe('conflict');
    });

    it('ranks the same content by updatedAt at full precision, and is the same record when that ties too', () => {
      const touched = v(3, { sourceUpdatedAt: '2026-12-01T10:00:00.0000001Z' });
      const first = v(3, { sourceUpdatedAt: '2026-12-01T10:00:00Z', sourceEventId: 'z' });
      expect(compareFreshness(touched, first)).toBe('fresher');
      expect(compareFreshness(first, touched)).toBe('older');
      expect(compareFreshness(touched, v(3))).toBe('fresher');
      expect(compareFreshness(v(3, { sourceEventId: 'a' }), v(3, { sourceEventId: 'b' }))).toBe('same');
    });
  });
});
