/**
 * Invariant 5 end to end: 10,000 versioned updates (some of them deletes) of 1,000 contacts, shuffled,
 * in batches of 1,000, each batch posted twice at once. Every contact ends at its freshest version,
 * its history only moves forwards, every update that arrived behind a fresher one is answered and
 * audited `skipped_stale`, and the read models (folded by the real projection runner) agree.
 */
import { contactsReadModel } from '../../../projections/contacts/contacts.projector';
import { importEventsReadModel } from '../../../projections/import-events/import-events.projector';
import { readModelProjection } from '../../../src/subscriptions/read-models/read-model.projection';
import { verifyReadModel } from '../../../src/subscriptions/read-models/verify';
import { startProjections } from '../../../src/subscriptions/start-projections';
import { waitUntilCaughtUp } from '../../../test/projections/projection-harness';
import { waitUntilSettled } from '../../../test/harness/settled-history';
import { auth, startTestApp, type TestApp } from '../../../test/harness/test-app';

let harness: TestApp;
beforeAll(async () => {
  harness = await startTestApp('contacts_shuffled');
});
afterAll(() => harness.close());

const CONTACTS = 1000;
/** mulberry32: a reproducible shuffle. */
const seededRandom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const VERSIONS = 10;

interface Update {
  sourceId: string;
  version: number;
  eventId: string;
  deleted?: boolean;
  fields?: Record<string, unknown>;
}

function shuffledUpdates(random: () => number): Update[] {
  const updates: Update[] = [];
  for (let c = 0; c < CONTACTS; c++) {
    for (let version = 1; version <= VERSIONS; version++) {
      const sourceId = `s-${c}`;
      const eventId = `${sourceId}-v${version}`;
      updates.push(
        random() < 0.1
          ? { sourceId, version, eventId, deleted: true }
          : { sourceId, version, eventId, fields: { name: `Customer ${c}`, version } },
      );
    }
  }
  for (let i = updates.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [updates[i], updates[j]] = [updates[j], updates[i]];
  }
  return updates;
}

it('ends every contact at its freshest version, moves only forwards and answers and audits every stale update as skipped_stale', async () => {
  const updates = shuffledUpdates(seededRandom(14));
  const answers = new Map<string, string[]>(); // eventId → outcomes of both deliveries
  for (let b = 0; b < updates.length; b += 1000) {
    const records = updates.slice(b, b + 1000);
    const send = () =>
      harness.app.inject({ method: 'POST', url: '/v1/contacts/import', headers: auth('sync'), payload: { source: 'crm', records } });
    for (const response of await Promise.all([send(), send()])) {
      expect(response.statusCode).toBe(200);
      response
        .json()
        .results.forEach((r: { outcome: string }, i: number) =>
          answers.set(records[i].eventId, [...(answers.get(records[i].eventId) ?? []), r.outcome]),
        );
    }
  }

  await waitUntilSettled(harness.runtime.pool); // readAll sees settled history only; other test files share the cluster
  const events = await harness.runtime.eventStore.readAll({ filter: { streamCategories: ['contact'] }, maxCount: 1_000_000 });
  const byStream = new Map<string, typeof events>();
  for (const e of events) byStream.set(e.stream, [...(byStream.get(e.stream) ?? []), e]);
  expect(byStream.size).toBe(CONTACTS);
  const appended = new Set<string>();
  for (const [stream, history] of byStream) {
    const versions = history.map((e) => e.data.sourceVersion as number);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
    const last = history.at(-1)!;
    expect(last.data.sourceVersion).toBe(VERSIONS);
    const freshest = updates.find((u) => `contact-crm.${u.sourceId}` === stream && u.version === VERSIONS)!;
    expect(last.type).toBe(freshest.deleted ? 'ContactDeleted' : 'ContactImported');
    for (const e of history) appended.add(e.data.sourceEventId as string);
  }

  let stale = 0;
  for (const update of updates) {
    const outcomes = answers.get(update.eventId)!.sort();
    if (appended.has(update.eventId)) {
      // One delivery applied it, the other found it applied (or already overtaken by a fresher one).
      expect(outcomes.filter((o) => ['imported', 'updated', 'deleted', 'unchanged'].includes(o))).toHaveLength(1);
      expect(outcomes.filter((o) => ['duplicate', 'skipped_stale'].includes(o))).toHaveLength(1);
    } else {
      expect(outcomes).toEqual(['skipped_stale', 'skipped_stale']);
    }
    stale += outcomes.filter((o) => o === 'skipped_stale').length;
  }
  expect(stale).toBeGreaterThan(0);

  const audit = await harness.runtime.eventStore.readAll({ filter: { eventTypes: ['ImportRecordProcessed'] }, maxCount: 1_000_000 });
  expect(audit.filter((e) => e.data.outcome === 'skipped_stale')).toHaveLength(stale);

  const store = harness.runtime.eventStore;
  const running = await startProjections({
    store,
    pool: harness.runtime.pool,
    readModels: [contactsReadModel, importEventsReadModel],
    reactors: [],
  });
  try {
    await waitUntilCaughtUp(
      store,
      harness.runtime.pool,
      [readModelProjection(contactsReadModel), readModelProjection(importEventsReadModel)],
      120_000,
    );
  } finally {
    await running.stop();
  }
  const living = updates.filter((u) => u.version === VERSIONS && !u.deleted).length;
  const { rows } = await harness.runtime.pool.query(
    `SELECT (SELECT count(*) FROM contacts)::int AS contacts, (SELECT count(*) FROM import_events)::int AS audit`,
  );
  expect(rows[0]).toEqual({ contacts: living, audit: 2 * updates.length });
  expect((await verifyReadModel(store, harness.runtime.pool, contactsReadModel)).differences).toEqual([]);

  // For any record, every import that touched it and why: here the stale deliveries of one contact.
  const staleOne = updates.find((u) => answers.get(u.eventId)!.every((o) => o === 'skipped_stale'))!;
  const trail = await harness.app.inject({ method: 'GET', url: `/v1/contacts/crm/${staleOne.sourceId}/imports`, headers: auth('auditor') });
  const deliveries = trail.json().imports.filter((i: { eventId?: string }) => i.eventId === staleOne.eventId);
  expect(deliveries).toEqual([
    expect.objectContaining({ outcome: 'skipped_stale', reason: expect.stringContaining('lost to version') }),
    expect.objectContaining({ outcome: 'skipped_stale' }),
  ]);
  expect(trail.json().imports).toHaveLength(2 * VERSIONS);
}, 300_000);
