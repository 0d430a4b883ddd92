/**
 * esdb.md §2.2: the event-id dedupe scenario table, through the real client on both append paths.
 * Stream `s` holds e0..e5, written in one append with no_stream.
 */
import { randomUUID } from 'node:crypto';
import type { AppendExpectedRevision, AppendResult } from '@eventstore/db-client';
import { WrongExpectedVersionError } from '@eventstore/db-client';
import { entryCost } from './id-cache';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';

describe.each(APPEND_PATHS)('event-id dedupe over $path', ({ batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend });
  let s: string;
  let ids: string[];
  let original: AppendResult;
  const e = (i: number) => event(ids[i]);
  const append = (events: ReturnType<typeof event>[], expectedRevision: AppendExpectedRevision) =>
    esdb.client.appendToStream(s, events, { expectedRevision });
  const revisions = async () => (await readStream(esdb.client, s)).map((r) => r.event!.id);
  const positionOf = async (revision: number) => (await readStream(esdb.client, s))[revision].event!.position;

  beforeEach(async () => {
    s = streamName();
    ids = Array.from({ length: 6 }, () => randomUUID());
    original = await esdb.client.appendToStream(
      s,
      ids.map((id) => event(id)),
      { expectedRevision: 'no_stream' },
    );
  });

  it('answers e0..e5 with no_stream with the original result and writes nothing', async () => {
    expect(
      await append(
        ids.map((_, i) => e(i)),
        'no_stream',
      ),
    ).toEqual(original);
    expect(await revisions()).toEqual(ids);
  });

  it("answers e0 alone with no_stream as the prefix it is: revision 0 at e0's position", async () => {
    expect(await append([e(0)], 'no_stream')).toEqual({ success: true, nextExpectedRevision: 0n, position: await positionOf(0) });
  });

  it('answers e1 at exact 0 with revision 1', async () => {
    expect((await append([e(1)], 0n)).nextExpectedRevision).toBe(1n);
    expect(await revisions()).toHaveLength(6);
  });

  it('appends e0 again at exact 5, the current revision: no duplicate check there', async () => {
    expect((await append([e(0)], 5n)).nextExpectedRevision).toBe(6n);
    expect(await revisions()).toEqual([...ids, ids[0]]);
  });

  it('refuses e0 at exact 4 because revision 5 holds another event', async () => {
    expect(await failureOf(append([e(0)], 4n))).toMatchObject({ actualVersion: 5n, expectedVersion: 4n });
  });

  it('refuses e0 at exact 6, ahead of the stream', async () => {
    expect(await failureOf(append([e(0)], 6n))).toMatchObject({ actualVersion: 5n });
  });

  it('refuses e0, e1 and a new event with no_stream as corrupted idempotency', async () => {
    const error = await failureOf(append([e(0), e(1), event()], 'no_stream'));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ actualVersion: 5n });
    expect(await revisions()).toHaveLength(6);
  });

  it("answers e1 with any from the id cache with e1's own revision, not the stream's", async () => {
    expect(await append([e(1)], 'any')).toEqual({ success: true, nextExpectedRevision: 1n, position: await positionOf(1) });
  });

  it('writes e0..e5 again with any once a restart has emptied the id cache', async () => {
    await esdb.emulator.restart();
    expect(
      (
        await append(
          ids.map((_, i) => e(i)),
          'any',
        )
      ).nextExpectedRevision,
    ).toBe(11n);
    expect(await revisions()).toEqual([...ids, ...ids]);
  });

  it('writes a new event followed by e0 with any: the first id decides, so e0 is duplicated', async () => {
    const fresh = randomUUID();
    expect((await append([event(fresh), e(0)], 'any')).nextExpectedRevision).toBe(7n);
    expect(await revisions()).toEqual([...ids, fresh, ids[0]]);
  });

  it('refuses e0 followed by a new event with any as corrupted idempotency', async () => {
    expect(await failureOf(append([e(0), event()], 'any'))).toMatchObject({ expectedVersion: 'any', actualVersion: 5n });
    expect(await revisions()).toHaveLength(6);
  });

  it('still recognises e0..e5 with no_stream after other events, from the stored events', async () => {
    await append([event(), event(), event(), event()], 5n);
    await esdb.emulator.restart();
    expect(
      await append(
        ids.map((_, i) => e(i)),
        'no_stream',
      ),
    ).toEqual(original);
    expect(await revisions()).toHaveLength(10);
  });

  it('recognises e0..e5 with any after other events only while they are cached', async () => {
    await append([event(), event(), event(), event()], 5n);
    expect(
      await append(
        ids.map((_, i) => e(i)),
        'any',
      ),
    ).toEqual(original);
    await esdb.emulator.restart();
    expect(
      (
        await append(
          ids.map((_, i) => e(i)),
          'any',
        )
      ).nextExpectedRevision,
    ).toBe(15n);
  });
});

describe('the any/stream_exists id cache', () => {
  // Room for 60 ids of `order-<uuid>` streams: the server's 8 MiB, scaled down.
  const esdb = connectedEmulator({ idCacheBytes: 60 * entryCost(streamName()) });

  it('forgets the oldest ids first, so a long-ago duplicate appended with stream_exists is written again', async () => {
    const s = streamName();
    const ids = Array.from({ length: 6 }, () => randomUUID());
    await esdb.client.appendToStream(
      s,
      ids.map((id) => event(id)),
      { expectedRevision: 'no_stream' },
    );
    expect((await esdb.client.appendToStream(s, event(ids[0]), { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(0n);
    for (let i = 0; i < 6; i++)
      await esdb.client.appendToStream(
        streamName(),
        Array.from({ length: 10 }, () => event()),
      );
    expect((await esdb.client.appendToStream(s, event(ids[0]), { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(6n);
  });
});
