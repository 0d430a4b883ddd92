/**
 * Which `$all` events a read or subscription delivers. The server always hides its own bookkeeping
 * streams (`Services/Storage/ReaderIndex/EventFilter.cs`, `DefaultAllFilterStrategy`: `$epoch-information` and
 * `$persistentsubscription-$all::…-checkpoint`/`-parked`, kurrent-io/KurrentDB v24.10.5), then applies the request's filter: a regex (unanchored, like .NET's
 * `Regex.Match`) or any of a list of prefixes, on the stream name or the event type.
 */
import type { StoredEvent } from './event-log';
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors } from './rpc-errors';

const Options = streamsPb.ReadReq.Options;
/** `ReadBatchSize`: the default search window, and the catch-up page size. */
export const READ_BATCH_SIZE = 32;

export interface EventFilter {
  matches(event: StoredEvent): boolean;
  /** `maxSearchWindow`: events one catch-up page considers at most (`ReadBatchSize` unless the client sets `max`). */
  window: number;
  /** `checkpointIntervalMultiplier` as sent; a subscription refuses 0 (subscription.ts). */
  multiplier: number;
  /** Checkpoint every `window × multiplier` considered events (matched or not); 0 when the window is. */
  checkpointInterval: number;
}

/**
 * Server source (kurrent-io/KurrentDB v24.10.5), `Grpc/Streams.Read.cs`, `CreateEnumerator`: `count`
 * is `ReadBatchSize`, `max` is taken as sent (0 included), and no window at all is
 * `RpcExceptions.InvalidArgument(WindowCase)`: INVALID_ARGUMENT "'None' is not a valid <enum type>".
 */
function windowOf(filter: StreamsPb.ReadReq.Options.FilterOptions): number {
  const Case = Options.FilterOptions.WindowCase;
  if (filter.getWindowCase() === Case.MAX) return filter.getMax();
  if (filter.getWindowCase() === Case.COUNT) return READ_BATCH_SIZE;
  throw rpcErrors.invalidArgument(
    "'None' is not a valid EventStore.Client.Streams.ReadReq+Types+Options+Types+FilterOptions+WindowOneofCase",
  );
}

export function hiddenFromAll(event: StoredEvent): boolean {
  if (event.stream === '$epoch-information') return true;
  return event.stream.startsWith('$persistentsubscription-$all::') && /-(checkpoint|parked)$/.test(event.stream);
}

export function filterOf(options: StreamsPb.ReadReq.Options): EventFilter | undefined {
  if (options.getFilterOptionCase() !== Options.FilterOptionCase.FILTER) return undefined;
  const filter = options.getFilter()!;
  const onType = filter.getFilterCase() === Options.FilterOptions.FilterCase.EVENT_TYPE;
  const expression = onType ? filter.getEventType()! : filter.getStreamIdentifier()!;
  const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : undefined;
  const prefixes = expression.getPrefixList();
  const window = windowOf(filter);
  return {
    matches: (event) => {
      const subject = onType ? event.type : event.stream;
      return regex ? regex.test(subject) : prefixes.some((prefix) => subject.startsWith(prefix));
    },
    window,
    multiplier: filter.getCheckpointintervalmultiplier(),
    // `_checkpointInterval = checkpointIntervalMultiplier * _maxSearchWindow`: a uint product in C#'s default unchecked
    // context (`Enumerator.AllSubscriptionFiltered`), so it wraps at 2^32 — to 0 for a multiplier of 2^27 and the
    // count window (32), which then fails catching up as a `max` window of 0 does.
    checkpointInterval: Number((BigInt(window) * BigInt(filter.getCheckpointintervalmultiplier())) & 0xffffffffn),
  };
}

export function allFilterOf(options: StreamsPb.ReadReq.Options): (event: StoredEvent) => boolean {
  const filter = filterOf(options);
  return (event) => !hiddenFromAll(event) && (!filter || filter.matches(event));
}
