/**
 * Node states and writes that time out yet commit, as the server answers them (sources named in
 * node-state.ts and append-to-log.ts), observed through the real client.
 */
import { NotLeaderError, UnavailableError, UnknownError } from '@eventstore/db-client';
import { APPEND_PATHS, connectedEmulator, event, failureOf, readStream, streamName, until } from './fidelity-helpers';

describe.each(APPEND_PATHS)('node states over $path', ({ path, batchAppend }) => {
  const esdb = connectedEmulator({ batchAppend, writeTimeoutMs: 200 });
  afterEach(() => {
    esdb.emulator.setNodeState({ kind: 'leader' });
    esdb.emulator.setDelay(0);
  });

  it('answers an append on a node that is not ready as the path does: UNAVAILABLE on Append, in-band on BatchAppend', async () => {
    esdb.emulator.setNodeState({ kind: 'not-ready' });
    const error = await failureOf(esdb.client.appendToStream(streamName(), event()));
    if (path === 'Append') expect(error).toBeInstanceOf(UnavailableError);
    else
      expect(error).toEqual(expect.objectContaining({ constructor: UnknownError, message: expect.stringMatching(/Server Is Not Ready/) }));
  });

  it('refuses reads on a node that is not ready with UNAVAILABLE', async () => {
    esdb.emulator.setNodeState({ kind: 'not-ready' });
    expect(await failureOf(readStream(esdb.client, streamName()))).toBeInstanceOf(UnavailableError);
  });

  it("on a follower, refuses an append that requires the leader with the leader's endpoint, and serves one that does not", async () => {
    // The leader named here is this node itself: the client reconnects to the endpoint it is given.
    const leader = { host: '127.0.0.1', port: esdb.emulator.port };
    esdb.emulator.setNodeState({ kind: 'follower', leader });
    const error = await failureOf(esdb.client.appendToStream(streamName(), event(), { requiresLeader: true }));
    expect(error).toBeInstanceOf(NotLeaderError);
    expect(error).toMatchObject({ leader: { address: leader.host, port: leader.port } });
    // Without requires-leader a follower forwards the write (ClusterVNodeController.HandleAsNonLeader).
    expect((await esdb.client.appendToStream(streamName(), event())).success).toBe(true);
  });

  it('answers a write that misses its budget with a timeout, commits it anyway, and drops a duplicate sent meanwhile', async () => {
    const stream = streamName();
    const original = event();
    esdb.emulator.setDelay(400);
    const first = failureOf(esdb.client.appendToStream(stream, original));
    await until(() => esdb.emulator.writesInFlight() > 0);
    esdb.emulator.setDelay(0);
    const duplicate = failureOf(esdb.client.appendToStream(stream, original));
    expect((await first).constructor.name).toBe(batchAppend ? 'DeadlineExceededError' : 'TimeoutError');
    expect((await duplicate).constructor.name).toBe((await first).constructor.name);
    await until(() => esdb.emulator.writesInFlight() === 0);
    expect((await readStream(esdb.client, stream)).map((r) => r.event!.id)).toEqual([original.id]);
  });
});
