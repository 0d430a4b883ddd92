/**
 * Read options at their edges, as the server answers them (read.rpc.ts `streamReadRefusal`; sources there):
 * stream reads of 0 events, forwards from `End`, or from a revision no `StreamRevision` holds are refused before the
 * stream is looked at; reads starting past the end answer nothing.
 */
import { BACKWARDS, END, UnknownError } from '@eventstore/db-client';
import { connectedEmulator, event, failureOf, readStream, streamName } from './fidelity-helpers';

describe('stream read options at their edges', () => {
  const esdb = connectedEmulator();
  let stream: string;
  beforeAll(async () => {
    stream = streamName();
    await esdb.client.appendToStream(stream, [event(), event(), event()]);
  });

  const read = async (name: string, options: Parameters<typeof esdb.client.readStream>[1]) => {
    const revisions: bigint[] = [];
    for await (const resolved of esdb.client.readStream(name, options)) revisions.push(resolved.event!.revision);
    return revisions;
  };

  it.each([
    ['a count of 0', { maxCount: 0 }],
    ['a count of 0, backwards', { maxCount: 0, direction: BACKWARDS }],
    ['forwards from the end', { fromRevision: END }],
  ] as const)("refuses %s as the storage reader's error, whether or not the stream exists", async (_what, options) => {
    for (const name of [stream, streamName()]) {
      const error = await failureOf(read(name, options));
      expect(error).toBeInstanceOf(UnknownError);
      expect(error.message).toContain('Unexpected ReadStreamResult: Error');
    }
  });

  it('refuses a revision above long.MaxValue that is not End as an exception in the handler', async () => {
    const error = await failureOf(read(stream, { fromRevision: 2n ** 63n }));
    expect(error).toBeInstanceOf(UnknownError);
    expect(error.message).toContain('Exception was thrown by handler.');
  });

  it('reads ulong.MaxValue backwards as End, and from the end backwards, newest first', async () => {
    expect(await read(stream, { fromRevision: 2n ** 64n - 1n, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
    expect(await read(stream, { fromRevision: END, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
  });

  it('answers nothing forwards from past the end, and the tail backwards from past it', async () => {
    expect(await read(stream, { fromRevision: 10n })).toEqual([]);
    expect(await read(stream, { fromRevision: 10n, direction: BACKWARDS })).toEqual([2n, 1n, 0n]);
    expect((await readStream(esdb.client, stream)).length).toBe(3);
  });
});
