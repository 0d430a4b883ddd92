/**
 * Test helper: the raw messages of a filtered `$all` subscription, read with the client package's own
 * generated stub, so a spec sees exactly what the server sent (the client turns checkpoints into
 * callbacks and drops what it does not know).
 */
import type { Position } from '@eventstore/db-client';
import { StreamsClient, grpc, sharedPb, streamsPb, type StreamsPb } from './proto';

export type WireStart = 'start' | 'end' | Position;

/**
 * Messages as `confirmation`, `event@<commit>`, `checkpoint@<commit>/<prepare>`, `caught_up`, until
 * `until` says stop. `onMessage` runs after each one and is awaited: the call is not read meanwhile, so
 * a server sending a long catch-up waits for it (back-pressure). The filter is a stream prefix with the count window.
 */
export async function wireMessages(
  port: number,
  prefix: string,
  from: WireStart,
  until: (kinds: string[]) => boolean,
  onMessage?: (kinds: string[]) => Promise<void>,
  multiplier = 1,
): Promise<string[]> {
  const client = new StreamsClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const all = new streamsPb.ReadReq.Options.AllOptions();
  if (from === 'start') all.setStart(new sharedPb.Empty());
  else if (from === 'end') all.setEnd(new sharedPb.Empty());
  else all.setPosition(new streamsPb.ReadReq.Options.Position().setCommitPosition(`${from.commit}`).setPreparePosition(`${from.prepare}`));
  const filter = new streamsPb.ReadReq.Options.FilterOptions()
    .setStreamIdentifier(new streamsPb.ReadReq.Options.FilterOptions.Expression().setPrefixList([prefix]))
    .setCount(new sharedPb.Empty())
    .setCheckpointintervalmultiplier(multiplier);
  const options = new streamsPb.ReadReq.Options()
    .setAll(all)
    .setSubscription(new streamsPb.ReadReq.Options.SubscriptionOptions())
    .setFilter(filter)
    .setUuidOption(new streamsPb.ReadReq.Options.UUIDOption().setString(new sharedPb.Empty()));
  const call = client.read(new streamsPb.ReadReq().setOptions(options));
  const kinds: string[] = [];
  try {
    for await (const response of call as AsyncIterable<StreamsPb.ReadResp>) {
      if (response.hasConfirmation()) kinds.push('confirmation');
      const checkpoint = response.getCheckpoint();
      if (checkpoint) kinds.push(`checkpoint@${checkpoint.getCommitPosition()}/${checkpoint.getPreparePosition()}`);
      if (response.hasCaughtUp()) kinds.push('caught_up');
      if (response.hasEvent()) kinds.push(`event@${response.getEvent()!.getEvent()!.getCommitPosition()}`);
      await onMessage?.(kinds);
      if (until(kinds)) break;
    }
  } finally {
    call.cancel();
    client.close();
  }
  return kinds;
}
