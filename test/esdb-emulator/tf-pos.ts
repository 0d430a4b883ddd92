/**
 * The server's log positions: `TFPos` (two signed 64-bit longs, commit then prepare, compared as a pair)
 * inside, `Position` (two unsigned longs) on the wire. Server source, tag v24.10.4/v24.10.5:
 * `src/EventStore.Core/Data/TFPos.cs` (`HeadOfTf` = (−1, −1), `FirstRecordOfTf` = (0, 0), `CompareTo`:
 * commit first, then prepare) and `src/EventStore.Core/Services/Transport/Common/Position.cs`
 * (`Position.FromInt64`: −1 becomes `ulong.MaxValue`, so `HeadOfTf` leaves the server as `Position.End`).
 */
export interface TfPos {
  commit: bigint;
  prepare: bigint;
}

export const HEAD_OF_TF: TfPos = { commit: -1n, prepare: -1n };
export const FIRST_RECORD_OF_TF: TfPos = { commit: 0n, prepare: 0n };
const ULONG_MAX = 2n ** 64n - 1n;

/** `TFPos.CompareTo`: commit position first, then prepare position. */
export function compareTfPos(a: TfPos, b: TfPos): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** An event's own position: every emulated event is self-committed, so commit == prepare. */
export function eventPos(position: bigint): TfPos {
  return { commit: position, prepare: position };
}

/** `Position.FromInt64`, as decimal strings for the wire (uint64 fields are `jstype = JS_STRING` in the client's generated `streams_pb.js`). */
export function toWire(pos: TfPos): { commit: string; prepare: string } {
  const unsigned = (value: bigint) => (value === -1n ? ULONG_MAX : value).toString();
  return { commit: unsigned(pos.commit), prepare: unsigned(pos.prepare) };
}

/**
 * Server lines whose behaviour differs. `AllSubscriptionFiltered` sent `HeadOfTf` as a checkpoint from
 * 24.10.0 until 24.10.4; v24.10.5 guards `SendCheckpointToSubscription` against it and moves the
 * checkpoint to each page start (`completed.CurrentPos`) after every page.
 */
export function hasEndCheckpointQuirk(serverVersion: string): boolean {
  const [major, minor, patch] = serverVersion.split(/[.-]/).map(Number);
  return major === 24 && minor === 10 && patch < 5;
}
