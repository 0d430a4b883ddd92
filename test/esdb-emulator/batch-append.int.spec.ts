/**
 * BatchAppend (esdb.md §3.2): the client multiplexes every concurrent append on one long-lived bidi
 * call and matches answers by correlation id through a module-global promise bank, so a missing or
 * wrong correlation id, a missing `stream_identifier` or an early end of the call would leave promises
 * hanging or settle the wrong ones.
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedVersionError } from '@eventstore/db-client';
import { StreamsClient, type GrpcJs, emptyPb, grpc, sharedPb, streamsPb, type StreamsPb } from './proto';
import { connectedEmulator, event, readStream, streamName } from './fidelity-helpers';

describe('BatchAppend', () => {
  const esdb = connectedEmulator();

  it('settles 32 concurrent appends multiplexed over one call, conflicts included, each with its own answer', async () => {
    await esdb.client.appendToStream(streamName(), event()); // opens the call
    const callsBefore = esdb.emulator.stats.batchAppendCalls;
    const contested = Array.from({ length: 8 }, () => streamName());
    const solo = Array.from({ length: 16 }, () => streamName());
    const attempts = [
      ...solo.map((stream) => ({ stream, events: [event(), event()], contested: false })),
      ...contested.flatMap((stream) => [1, 2].map(() => ({ stream, events: [event()], contested: true }))),
    ];
    esdb.emulator.holdWrites();
    const outcomes = attempts.map((a) =>
      esdb.client.appendToStream(a.stream, a.events, { expectedRevision: 'no_stream' }).then(
        (r) => r,
        (e: Error) => e,
      ),
    );
    await esdb.emulator.writesHeld(32);
    esdb.emulator.releaseWrites();
    const settled = await Promise.all(outcomes);

    expect(esdb.emulator.stats.batchAppendCalls).toBe(callsBefore);
    expect(esdb.emulator.stats.maxPendingOnOneBatchCall).toBe(32);
    for (const [i, attempt] of attempts.entries()) {
      const written = await readStream(esdb.client, attempt.stream);
      const outcome = settled[i];
      if (outcome instanceof Error) {
        expect(attempt.contested).toBe(true);
        expect(outcome).toBeInstanceOf(WrongExpectedVersionError);
        expect(outcome).toMatchObject({ streamName: attempt.stream, actualVersion: 0n });
        continue;
      }
      const mine = written.filter((r) => attempt.events.some((e) => e.id === r.event!.id));
      expect(mine).toHaveLength(attempt.events.length);
      expect(outcome).toEqual({
        success: true,
        nextExpectedRevision: mine.at(-1)!.event!.revision,
        position: mine.at(-1)!.event!.position,
      });
    }
    expect(settled.filter((o) => o instanceof Error)).toHaveLength(contested.length);
  });

  it('answers every request before it ends a call the client has half-closed', async () => {
    const client = new StreamsClient(`127.0.0.1:${esdb.emulator.port}`, grpc.credentials.createInsecure());
    const call = client.batchAppend();
    const seen: string[] = [];
    const closed = new Promise<GrpcJs.StatusObject>((resolve) => call.on('status', resolve));
    call.on('data', (response: StreamsPb.BatchAppendResp) => seen.push(response.hasSuccess() ? 'success' : 'error'));
    esdb.emulator.holdWrites();
    const correlationId = new sharedPb.UUID().setString(randomUUID());
    const options = new streamsPb.BatchAppendReq.Options()
      .setStreamIdentifier(new sharedPb.StreamIdentifier().setStreamName(Buffer.from(streamName())))
      .setAny(new emptyPb.Empty());
    const proposed = new streamsPb.BatchAppendReq.ProposedMessage()
      .setId(new sharedPb.UUID().setString(randomUUID()))
      .setData(Buffer.from('{}'));
    proposed.getMetadataMap().set('type', 'Happened').set('content-type', 'application/json');
    call.write(
      new streamsPb.BatchAppendReq()
        .setCorrelationId(correlationId)
        .setOptions(options)
        .setProposedMessagesList([proposed])
        .setIsFinal(true),
    );
    call.end();
    await esdb.emulator.writesHeld(1);
    esdb.emulator.releaseWrites();
    expect((await closed).code).toBe(grpc.status.OK);
    expect(seen).toEqual(['success']);
    client.close();
  });
});
