/**
 * The option combinations `Streams.Read` serves (`Grpc/Streams.Read.cs` `CreateEnumerator`, kurrent-io/KurrentDB
 * v24.10.5): reads of a stream or `$all` in either direction (a filter on `$all` only), and forward subscriptions (a
 * filter on `$all` only). Anything else — a backward subscription, a filter on a stream, a missing count or filter
 * option, a direction that is neither — is `RpcExceptions.InvalidCombination`: INVALID_ARGUMENT naming the tuple of
 * .NET enum names, thrown before the node is asked anything.
 */
import { streamsPb, type StreamsPb } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';

const Options = streamsPb.ReadReq.Options;

/** The C# oneof-case and enum names, as `ValueTuple.ToString` prints them. */
const STREAM = { [Options.StreamOptionCase.STREAM]: 'Stream', [Options.StreamOptionCase.ALL]: 'All' } as Record<number, string>;
const COUNT = { [Options.CountOptionCase.COUNT]: 'Count', [Options.CountOptionCase.SUBSCRIPTION]: 'Subscription' } as Record<
  number,
  string
>;
const DIRECTION = { [Options.ReadDirection.FORWARDS]: 'Forwards', [Options.ReadDirection.BACKWARDS]: 'Backwards' } as Record<
  number,
  string
>;
const FILTER = { [Options.FilterOptionCase.FILTER]: 'Filter', [Options.FilterOptionCase.NO_FILTER]: 'NoFilter' } as Record<number, string>;

const SERVED = new Set([
  'Stream, Count, Forwards, NoFilter',
  'Stream, Count, Backwards, NoFilter',
  'All, Count, Forwards, NoFilter',
  'All, Count, Forwards, Filter',
  'All, Count, Backwards, NoFilter',
  'All, Count, Backwards, Filter',
  'Stream, Subscription, Forwards, NoFilter',
  'All, Subscription, Forwards, NoFilter',
  'All, Subscription, Forwards, Filter',
]);

export function combinationRefusal(options: StreamsPb.ReadReq.Options): RpcError | undefined {
  const combination = [
    STREAM[options.getStreamOptionCase()] ?? 'None',
    COUNT[options.getCountOptionCase()] ?? 'None',
    DIRECTION[options.getReadDirection()] ?? String(options.getReadDirection()),
    FILTER[options.getFilterOptionCase()] ?? 'None',
  ].join(', ');
  return SERVED.has(combination) ? undefined : rpcErrors.invalidArgument(`The combination of (${combination}) is invalid.`);
}
