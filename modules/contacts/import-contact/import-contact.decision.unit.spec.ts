import { deciderSpec } from '../../../test/harness/decider-spec';
import type { ContactDeleted, ContactEvent, ContactImported } from '../contact.events';
import { initialContactState } from '../contact.state';
import type { ContactRecord } from './contact-record';
import { importContactDecider, judgeContact, type ImportContact } from './import-contact.decision';

const spec = deciderSpec(importContactDecider);
const when = (record: ContactRecord, runId = 'run-2', seq = 0): ImportContact => ({ source: 'crm', record, runId, seq });

const imported = (record: ContactRecord, runId = 'run-1'): ContactImported => {
  const { sourceId, version, updatedAt, checksum = `sum-${sourceId}`, eventId, fields = {} } = record;
  const optional = Object.entries({ sourceVersion: version, sourceUpdatedAt: updatedAt, sourceEventId: eventId }).filter(
    ([, v]) => v !== undefined,
  );
  return { type: 'ContactImported', data: { checksum, ...Object.fromEntries(optional), source: 'crm', sourceId, runId, seq: 0, fields } };
};
const deleted = (record: ContactRecord, runId = 'run-1'): ContactDeleted => {
  const { data } = imported(record, runId);
  const { fields: _fields, ...rest } = data;
  return { type: 'ContactDeleted', data: rest };
};
const outcomeOf = (history: ContactEvent[], record: ContactRecord) =>
  judgeContact(when(record), history.reduce(importContactDecider.evolve, initialContactState()));

const v5: ContactRecord = { sourceId: '4419', version: 5, checksum: 'aaa', eventId: 'e5', fields: { name: 'Ada' } };
const v6: ContactRecord = { sourceId: '4419', version: 6, checksum: 'bbb', eventId: 'e6', fields: { name: 'Ada L.' } };
const t = (iso: string, checksum: string, eventId?: string): ContactRecord => ({
  sourceId: '7',
  updatedAt: iso,
  checksum,
  ...(eventId ? { eventId } : {}),
  fields: { c: checksum },
});

describe('ImportContact', () => {
  describe('when the contact has no stream yet', () => {
    it('imports the record', () => {
      spec
        .given([])
        .when(when(v5))
        .then([imported(v5, 'run-2')]);
      expect(outcomeOf([], v5).outcome).toBe('imported');
    });

    it('keeps a first-seen delete, so that an older update arriving later is stale', () => {
      const gone = { ...v6, deleted: true, fields: undefined };
      expect(outcomeOf([], gone).outcome).toBe('deleted');
      spec
        .given([])
        .when(when(gone))
        .then([deleted({ ...gone, checksum: 'bbb' }, 'run-2')]);
      expect(outcomeOf([deleted(gone)], v5)).toMatchObject({ outcome: 'skipped_stale', reason: expect.stringContaining('version 6') });
    });

    it('records no source event id when the source sends none (the key is absent, not undefined)', () => {
      const { event } = judgeContact(when({ sourceId: '1', version: 1, fields: { a: 1 } }), initialContactState());
      expect(Object.keys(event!.data)).not.toContain('sourceEventId');
    });

    it('computes a checksum from the fields when the source sends none, ignoring key order', () => {
      const a = judgeContact(when({ sourceId: '1', fields: { a: 1, b: 2 } }), initialContactState());
      const b = judgeContact(when({ sourceId: '1', fields: { b: 2, a: 1 } }), initialContactState());
      expect(a.event!.data.checksum).toMatch(/^[0-9a-f]{32}$/);
      expect(a.event!.data.checksum).toBe(b.event!.data.checksum);
    });

    it('names the step with the import and the record place, so two imports never share an event id', () => {
      expect(
        spec
          .given([])
          .when(when(v5, 'run-9', 3))
          .decided()[0].key,
      ).toBe('contact/run-9/3');
    });
  });

  describe('when the source gives versions', () => {
    it('applies a fresher version as updated', () => {
      spec
        .given([imported(v5)])
        .when(when(v6))
        .then([imported(v6, 'run-2')]);
      expect(outcomeOf([imported(v5)], v6).outcome).toBe('updated');
    });

    it('gives a plain update no reason: only a contact brought back from a delete is explained', () => {
      expect(outcomeOf([imported(v5)], v6)).toStrictEqual({ outcome: 'updated', event: imported(v6, 'run-2') });
    });

    it('skips an older version as skipped_stale and says what it lost to, appending nothing', () => {
      spec
        .given([imported(v6)])
        .when(when({ ...v5, eventId: 'other' }))
        .thenNothing();
      expect(outcomeOf([imported(v6)], { ...v5, eventId: 'other' })).toEqual({
        outcome: 'skipped_stale',
        reason: 'lost to version 6, checksum bbb, event e6 (revision 0)',
      });
    });

    it('answers the same version with the same checksum (and no event id) as unchanged, appending nothing', () => {
      const again = { ...v5, eventId: undefined };
      spec
        .given([imported(v5)])
        .when(when(again))
        .thenNothing();
      expect(outcomeOf([imported(v5)], again).outcome).toBe('unchanged');
    });

    it('refuses the same version with another checksum as a conflict, appending nothing', () => {
      const contradiction = { ...v5, checksum: 'zzz', eventId: 'e5b' };
      spec
        .given([imported(v5)])
        .when(when(contradiction))
        .thenNothing();
      expect(outcomeOf([imported(v5)], contradiction)).toMatchObject({
        outcome: 'conflict',
        reason: expect.stringContaining('version 5 was already recorded'),
      });
    });

    it('still advances the stored freshness for a fresher version with the same checksum (unchanged), so an older different record cannot win later', () => {
      const sameContent = { ...v6, checksum: 'aaa', fields: v5.fields };
      spec
        .given([imported(v5)])
        .when(when(sameContent))
        .then([imported(sameContent, 'run-2')]);
      expect(outcomeOf([imported(v5)], sameContent).outcome).toBe('unchanged');
      const lateOlder = { ...v5, version: 5, checksum: 'ccc', eventId: 'e5c' };
      expect(outcomeOf([imported(v5), imported(sameContent)], lateOlder).outcome).toBe('skipped_stale');
    });
  });

  describe('when an import meets its own append again (resumed after a crash before recording it)', () => {
    it('answers with what that append was, not duplicate, and appends nothing', () => {
      spec
        .given([imported(v5, 'run-2')])
        .when(when(v5))
        .thenNothing();
      expect(outcomeOf([imported(v5, 'run-2')], v5)).toEqual({
        outcome: 'imported',
        reason: 'recorded by this import before it was interrupted',
      });
      expect(outcomeOf([imported(v5), imported(v6, 'run-2')], v6).outcome).toBe('updated');
    });

    it('applies a fresher record the source sent meanwhile (a pull page fetched again), answered with what the step did', () => {
      spec
        .given([imported(v5, 'run-2')])
        .when(when(v6))
        .then([imported(v6, 'run-2')]);
      expect(outcomeOf([imported(v5, 'run-2')], v6)).toEqual({
        outcome: 'imported',
        event: imported(v6, 'run-2'),
        reason:
          'the source changed the record after this import first appended it (as version 5, checksum aaa, event e5): the fresher one is applied',
      });
      expect(outcomeOf([imported(v5), imported(v6, 'run-2')], { ...v6, version: 7, checksum: 'ccc' }).outcome).toBe('updated');
      const gone = { ...v6, deleted: true, fields: undefined };
      expect(outcomeOf([imported(v5, 'run-2')], gone).outcome).toBe('deleted');
    });

    it('leaves its append as it is when the record met again is no fresher than what the contact holds', () => {
      spec
        .given([imported(v6, 'run-2')])
        .when(when(v5))
        .thenNothing();
      expect(outcomeOf([imported(v6, 'run-2')], v5)).toEqual({
        outcome: 'imported',
        reason: 'recorded by this import before it was interrupted',
      });
    });
  });

  describe('when a source event id comes again with the same record (a redelivery)', () => {
    it('answers duplicate, whatever came since, appending nothing', () => {
      spec
        .given([imported(v5), imported(v6)])
        .when(when(v5))
        .thenNothing();
      expect(outcomeOf([imported(v5), imported(v6)], v5)).toEqual({ outcome: 'duplicate', reason: 'source event e5 is already applied' });
    });
  });

  describe('when a source event id comes again with other content (the source reused it)', () => {
    it('judges it by the freshness rule like any record, saying the id was reused: a fresher one is applied', () => {
      const reused = { ...v6, eventId: 'e5' };
      spec
        .given([imported(v5)])
        .when(when(reused))
        .then([imported(reused, 'run-2')]);
      expect(outcomeOf([imported(v5)], reused)).toEqual({
        outcome: 'updated',
        event: imported(reused, 'run-2'),
        reason: 'source event e5 was reused with different content (applied as version 5, checksum aaa, event e5)',
      });
    });

    it('skips an older one as stale, saying the id was reused, whichever of the two arrived first', () => {
      expect(outcomeOf([imported({ ...v6, eventId: 'e5' })], v5)).toEqual({
        outcome: 'skipped_stale',
        reason:
          'source event e5 was reused with different content (applied as version 6, checksum bbb, event e5); ' +
          'lost to version 6, checksum bbb, event e5 (revision 0)',
      });
    });
  });

  describe('when the source gives only updatedAt', () => {
    const early = t('2026-12-01T10:00:00Z', 'bbb');
    const late = t('2026-12-01T11:00:00.000+01:00', 'aaa'); // the same instant as 10:00Z
    const later = t('2026-12-01T10:00:01Z', 'aaa');

    it('orders by the instant, not the text', () => {
      expect(outcomeOf([imported(early)], later).outcome).toBe('updated');
      expect(outcomeOf([imported(later)], early).outcome).toBe('skipped_stale');
    });

    it('breaks an updatedAt tie by the greater checksum, whichever arrives first', () => {
      expect(outcomeOf([imported(late)], early).outcome).toBe('updated');
      expect(outcomeOf([imported(early)], late).outcome).toBe('skipped_stale');
    });

    it('breaks a tie of updatedAt and checksum by the greater source event id', () => {
      const a = t('2026-12-01T10:00:00Z', 'bbb', 'ev-a');
      const b = t('2026-12-01T10:00:00Z', 'bbb', 'ev-b');
      expect(outcomeOf([imported(a)], b).outcome).toBe('unchanged');
      spec
        .given([imported(a)])
        .when(when(b))
        .then([imported(b, 'run-2')]);
      expect(outcomeOf([imported(b)], a).outcome).toBe('skipped_stale');
    });

    it('answers the very same record as unchanged', () => {
      expect(outcomeOf([imported(early)], early).outcome).toBe('unchanged');
    });
  });

  describe('when updatedAt differs below the millisecond', () => {
    it('applies the later one and skips the earlier, saying what it lost to at full precision', () => {
      const early = t('2026-12-01T10:00:00.100001Z', 'zzz', 'us-1');
      const late = t('2026-12-01T10:00:00.100900Z', 'aaa', 'us-2');
      expect(outcomeOf([imported(early)], late).outcome).toBe('updated');
      expect(outcomeOf([imported(late)], early)).toEqual({
        outcome: 'skipped_stale',
        reason: 'lost to updatedAt 2026-12-01T10:00:00.100900Z, checksum aaa, event us-2 (revision 0)',
      });
    });
  });

  describe('when only one of the records gives a version', () => {
    const v3: ContactRecord = { sourceId: 'mxC', version: 3, checksum: 'ccc', eventId: 'v3', fields: { v: 3 } };
    const touch = t('2030-01-01T00:00:00Z', 'zzz', 'touch');

    it('skips a record without a version behind a versioned one, whatever its updatedAt', () => {
      expect(outcomeOf([imported(v3)], touch)).toEqual({
        outcome: 'skipped_stale',
        reason: 'lost to version 3, checksum ccc, event v3 (revision 0)',
      });
    });

    it('lets a versioned record replace one without a version, so an older version cannot come back through it', () => {
      const v2 = { ...v3, version: 2, checksum: 'bbb', eventId: 'v2' };
      expect(outcomeOf([imported(touch)], v3).outcome).toBe('updated');
      expect(outcomeOf([imported(touch), imported(v3)], v2).outcome).toBe('skipped_stale');
    });
  });

  describe('when the source gives no order at all', () => {
    it('lets the later arrival win, and answers the same content as unchanged', () => {
      const a = { sourceId: '9', checksum: 'x', fields: {} };
      expect(outcomeOf([imported(a)], { ...a, checksum: 'w' }).outcome).toBe('updated');
      expect(outcomeOf([imported(a)], a).outcome).toBe('unchanged');
    });
  });

  describe('when a delete comes', () => {
    const gone6 = { ...v6, deleted: true };

    it('deletes a contact when it is fresher', () => {
      spec
        .given([imported(v5)])
        .when(when(gone6))
        .then([deleted(gone6, 'run-2')]);
      expect(outcomeOf([imported(v5)], gone6).outcome).toBe('deleted');
    });

    it('skips a stale delete', () => {
      expect(outcomeOf([imported(v6)], { ...v5, eventId: 'd5', deleted: true }).outcome).toBe('skipped_stale');
    });

    it('answers a fresher delete of a deleted contact as unchanged, still advancing its freshness', () => {
      const gone7 = { ...v6, version: 7, eventId: 'd7', deleted: true };
      spec
        .given([deleted(gone6)])
        .when(when(gone7))
        .then([deleted(gone7, 'run-2')]);
      expect(outcomeOf([deleted(gone6)], gone7).outcome).toBe('unchanged');
    });

    it('brings a deleted contact back only with a fresher version', () => {
      const v7 = { ...v6, version: 7, checksum: 'ccc', eventId: 'e7' };
      expect(outcomeOf([imported(v5), deleted(gone6)], v7)).toMatchObject({ outcome: 'updated', reason: expect.stringContaining('back') });
      expect(outcomeOf([imported(v5), deleted(gone6)], { ...v5, eventId: 'e5x' }).outcome).toBe('skipped_stale');
    });
  });
});
