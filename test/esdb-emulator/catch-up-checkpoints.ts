/**
 * `Enumerator.AllSubscriptionFiltered.CatchUp` and `SendCheckpointToSubscription`, per server line
 * (`src/EventStore.Core/Services/Transport/Enumerators/Enumerator.AllSubscriptionFiltered.cs`):
 *
 * - both: events at or before the checkpoint are skipped (full (commit, prepare) comparison, so a start
 *   at (c, 0) delivers the event at c); each event sent becomes the checkpoint; at the end of the log a
 *   checkpoint is sent and the subscription goes live; every `window × multiplier` considered events a
 *   checkpoint is sent, and the next page starts at `NextPos`;
 * - v24.10.0–v24.10.4: only on the interval does the checkpoint move up to the page start
 *   (`completed.CurrentPos`); nothing guards `HeadOfTf`, so a subscription from the start whose first
 *   page reaches the end with nothing matched is sent (−1, −1), i.e. `Position.End`;
 * - v24.10.5: after every page the checkpoint moves up to the page start when `CurrentPos < NextPos`; at
 *   the end, a checkpoint still at `HeadOfTf` becomes (0, 0) if a record was read, and `HeadOfTf` is
 *   never sent.
 *
 * `MoveNextAsync` drops a checkpoint not after the previous one, comparing the unsigned wire values
 * (`Position`), so after a bogus `End` every later checkpoint is dropped too.
 */
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { EventLog, StoredEvent } from './event-log';
import type { EventFilter } from './filters';
import { readCatchUpPage } from './filtered-catch-up';
import type { StreamsPb } from './proto';
import { send } from './send';
import { FIRST_RECORD_OF_TF, HEAD_OF_TF, compareTfPos, eventPos, toWire, type TfPos } from './tf-pos';
import { checkpointResponse } from './wire';

type Call = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;

export class WireCheckpoints {
  private last: TfPos | undefined;

  constructor(
    private readonly call: Call,
    private readonly quirk: boolean,
  ) {}

  /** False once the call is gone. */
  async send(pos: TfPos): Promise<boolean> {
    if (!this.quirk && compareTfPos(pos, HEAD_OF_TF) === 0) return true;
    const wire = toWire(pos);
    const unsigned = { commit: BigInt(wire.commit), prepare: BigInt(wire.prepare) };
    if (this.last && compareTfPos(unsigned, this.last) <= 0) return true;
    this.last = unsigned;
    return send(this.call, checkpointResponse(pos));
  }
}

/**
 * `CatchUp` with a checkpoint interval of 0 (a `max` window of 0): a page considers nothing, the
 * interval is "reached" and `checkpointIntervalCounter %= _checkpointInterval` divides by zero; the
 * exception ends the subscription (`MainLoop`: `_channel.Writer.TryComplete(ex)`).
 */
export class CatchUpFailed extends Error {}

export interface CatchUpEnd {
  checkpoint: TfPos;
  nextIndex: number;
}

/** Undefined once the call is gone. */
export async function runCatchUp(
  log: EventLog,
  from: TfPos,
  filter: EventFilter | undefined,
  matches: (event: StoredEvent) => boolean,
  quirk: boolean,
  sendEvent: (event: StoredEvent) => Promise<boolean>,
  checkpoints: WireCheckpoints,
): Promise<CatchUpEnd | undefined> {
  let checkpoint = from;
  if (!filter) {
    // `Enumerator.AllSubscription` / `StreamSubscription`: the same skip rule, and no checkpoints.
    let index = log.indexAtOrAfterPos(checkpoint);
    for (; index < log.all.length; index++) {
      const event = log.all[index];
      if (compareTfPos(eventPos(event.position), checkpoint) <= 0 || !matches(event)) continue;
      if (!(await sendEvent(event))) return undefined;
      checkpoint = eventPos(event.position);
    }
    return { checkpoint, nextIndex: index };
  }
  let counter = 0;
  let readFrom = checkpoint;
  for (;;) {
    const page = readCatchUpPage(log, readFrom, filter);
    for (const event of page.matched) {
      if (compareTfPos(eventPos(event.position), checkpoint) <= 0) continue;
      if (!(await sendEvent(event))) return undefined;
      checkpoint = eventPos(event.position);
    }
    if (!quirk && compareTfPos(checkpoint, page.current) < 0 && compareTfPos(page.current, page.next) < 0) checkpoint = page.current;
    counter += page.considered;
    if (page.endOfStream) {
      if (!quirk && compareTfPos(checkpoint, FIRST_RECORD_OF_TF) < 0 && compareTfPos(FIRST_RECORD_OF_TF, page.next) < 0)
        checkpoint = FIRST_RECORD_OF_TF;
      if (!(await checkpoints.send(checkpoint))) return undefined;
      return { checkpoint, nextIndex: page.nextIndex };
    }
    if (counter >= filter.checkpointInterval) {
      if (filter.checkpointInterval === 0) throw new CatchUpFailed('Attempted to divide by zero.');
      counter %= filter.checkpointInterval;
      if (quirk && compareTfPos(checkpoint, page.current) < 0) checkpoint = page.current;
      if (!(await checkpoints.send(checkpoint))) return undefined;
    }
    readFrom = page.next;
  }
}
