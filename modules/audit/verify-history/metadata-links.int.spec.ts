/**
 * The second check of `verify`, on real PostgreSQL: the hash links in every event's metadata. They
 * catch an edit of the event store even where the chain tables were rebuilt to agree with it (the
 * fixture's `rechain`), and leave events from before links existed alone.
 */
import { randomUUID } from 'node:crypto';
import { eventHash } from '../../../src/command-handling/hash-link';
import type { ProjectionDatabase } from '../../../test/projections/projection-harness';
import {
  appendEvents,
  chainedHistory,
  EVENT_COUNT,
  firstBreak,
  linkChain,
  metadata,
  settled,
  tamper,
} from '../../../test/harness/audit-history';
import { checkHistoryLinks } from './check-links';
import { verifyHistory, verifyStream } from './verify-history';

const SEAL_EVERY = 4;
const PAGE = 3;

describe('the metadata links of a history', () => {
  let db: ProjectionDatabase;
  beforeEach(async () => {
    db = await chainedHistory('audit_links', SEAL_EVERY);
  });
  afterEach(() => db.close());

  it('hold for every event of an untouched history', async () => {
    expect(await checkHistoryLinks(db.store, PAGE)).toEqual({ checked: EVENT_COUNT, unlinked: 0 });
    expect(await verifyHistory(db)).toMatchObject({ ok: true, checked: EVENT_COUNT });
  });

  it('name an event whose data was changed at the next event of its stream, as the chain names it at the event', async () => {
    await tamper.rewriteData(db, 'order-b', 1);
    const [, rewritten, next] = await db.store.readStream('order-b');
    expect(await verifyHistory(db)).toMatchObject(firstBreak('rewritten', 'order-b', 1));
    expect(await checkHistoryLinks(db.store, PAGE)).toMatchObject({
      firstBreak: {
        kind: 'link_mismatch',
        stream: 'order-b',
        revision: 2,
        expected: eventHash(rewritten),
        actual: next.metadata.previousEventHash,
      },
    });

    await tamper.rechain(db, SEAL_EVERY);
    expect(await verifyHistory(db)).toMatchObject({ ...firstBreak('link_mismatch', 'order-b', 2), checked: EVENT_COUNT });
    expect(await verifyStream(db, 'order-b')).toMatchObject(firstBreak('link_mismatch', 'order-b', 2));
    expect(await verifyStream(db, 'order-a')).toMatchObject({ ok: true });
  });

  it('report a link stripped from an event as unlinked, however the chain was rebuilt', async () => {
    await tamper.stripLink(db, 'order-b', 2);
    await tamper.rechain(db, SEAL_EVERY);
    expect(await verifyHistory(db)).toMatchObject(firstBreak('unlinked', 'order-b', 2));
    expect(await verifyStream(db, 'order-b')).toMatchObject(firstBreak('unlinked', 'order-b', 2));
  });

  it('report a revision gap left by a deleted event as missing', async () => {
    await tamper.deleteEvent(db, 'order-a', 1);
    await tamper.rechain(db, SEAL_EVERY);
    expect(await verifyHistory(db)).toMatchObject(firstBreak('missing', 'order-a', 1));
  });

  it('count events from before links existed as unlinked, not as a break', async () => {
    const legacy = [1, 2].map((n) => ({ id: randomUUID(), type: 'Happened', data: { n }, metadata }));
    await db.store.append('order-legacy', legacy, 'no_stream');
    await settled(db.store, 'order-legacy');
    await appendEvents(db.store, 'order-legacy', 1);
    await linkChain(db, SEAL_EVERY);
    expect(await checkHistoryLinks(db.store, PAGE)).toEqual({ checked: EVENT_COUNT + 3, unlinked: 2 });
    expect(await verifyHistory(db)).toMatchObject({ ok: true, checked: EVENT_COUNT + 3 });
    expect(await verifyStream(db, 'order-legacy')).toMatchObject({ ok: true, checked: 3 });
  });
});
