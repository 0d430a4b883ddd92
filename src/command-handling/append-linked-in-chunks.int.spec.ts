import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase } from '../../test/harness/test-database';
import { WrongExpectedVersion } from '../event-store/errors';
import type { EventToAppend } from '../event-store/event-store.port';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';
import { appendLinked, appendLinkedInChunks } from './append-linked';
import { checkStreamLinks } from './hash-link';

const metadata = { correlationId: 'c', causationId: 'c', actor: { role: 'test', tokenId: 't' }, recordedAt: '2026-12-02T09:00:00Z' };
const events = (n: number): EventToAppend[] =>
  Array.from({ length: n }, (_, i) => ({ id: randomUUID(), type: 'Noted', data: { i, text: 'x'.repeat(300) }, metadata }));

let pool: Pool;
let store: PostgresEventStore;
beforeAll(async () => {
  pool = new Pool({ connectionString: await createTestDatabase('append_chunks'), max: 4 });
  // About six of the events above fit one append.
  store = new PostgresEventStore(pool, { maxAppendBytes: 3000 });
  await store.migrate();
});
afterAll(() => pool.end());

describe('appendLinkedInChunks', () => {
  it('writes more than one append holds, in order, as one unbroken hash chain after what the stream held', async () => {
    const stream = `notes-${randomUUID()}`;
    await appendLinked(store, stream, events(1), 'no_stream');
    const batch = events(20);
    await expect(appendLinked(store, stream, batch, 0)).rejects.toThrow('the limit is 3000');
    const result = await appendLinkedInChunks(store, stream, batch, 0);
    expect(result.nextRevision).toBe(20);
    const recorded = await store.readStream(stream);
    expect(recorded.slice(1).map((e) => e.id)).toEqual(batch.map((e) => e.id));
    expect(checkStreamLinks(stream, recorded)).toEqual({ checked: 21, unlinked: 0 });
    // A retry of the same call is recognised chunk by chunk and writes nothing.
    expect((await appendLinkedInChunks(store, stream, batch, 0)).nextRevision).toBe(20);
    expect(await store.readStream(stream)).toHaveLength(21);
  });

  it('refuses the whole when the stream is not at the expected revision, writing nothing', async () => {
    const stream = `notes-${randomUUID()}`;
    await appendLinked(store, stream, events(1), 'no_stream');
    await expect(appendLinkedInChunks(store, stream, events(20), 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersion);
    expect(await store.readStream(stream)).toHaveLength(1);
  });
});
