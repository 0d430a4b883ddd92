/**
 * `resolveLinkTos` on reads and subscriptions, as `StorageReaderWorker.ResolveLinkToEvent` does it
 * (KurrentDB v24.10.5): an event of type `$>` (`SystemEventTypes.LinkTo`) whose data is
 * `"<eventNumber>@<stream>"` is answered as the event `IndexReader.ReadEvent` finds, with itself as the link
 * (`ResolvedEvent.ForResolvedLink`); a target that cannot be read (soft-deleted or tombstoned, truncated by `$tb` /
 * `$maxCount` / `$maxAge`, never written) leaves only the link (`ForFailedResolvedLink`), and so does an exception
 * on the way, caught there: a number without `@<stream>` (`parts[1]`) or below −1 (`ReadEvent`'s range check).
 * Event number −1 is the stream's last event (`ReadEventInternal`). A payload whose number does not parse as a
 * `long` is sent as a plain event (`ForUnresolvedEvent`) — except to a subscription that is live: its events are
 * resolved by `SubscriptionsService.ResolveLinkToEvent`, whose `long.Parse` throws there, so that link is failed too.
 * Without `resolveLinkTos` every link is a plain event.
 */
import type { EventLog, StoredEvent } from './event-log';
import type { StreamsPb } from './proto';
import { eventResponse, linkResponse, type IdForm } from './wire';

export const LINK_TO = '$>';

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** .NET `long.TryParse` (`NumberStyles.Integer`: ASCII white space around, one leading sign), or undefined. */
function parseLong(text: string): bigint | undefined {
  const match = /^[\t\n\v\f\r ]*([+-]?\d+)[\t\n\v\f\r ]*$/.exec(text);
  if (!match) return undefined;
  const value = BigInt(match[1]);
  return value < LONG_MIN || value > LONG_MAX ? undefined : value;
}

/** `live`: the event reached a live subscription (`SubscriptionsService`), not a read or a catch-up (`StorageReaderWorker`). */
export function readResponse(
  log: EventLog,
  event: StoredEvent,
  resolveLinks: boolean,
  live = false,
  form: IdForm = 'string',
): StreamsPb.ReadResp {
  if (!resolveLinks || event.type !== LINK_TO) return eventResponse(event, form);
  // `linkPayload.Split('@', 2)` then `long.TryParse(parts[0])`.
  const payload = Buffer.from(event.data).toString('utf8');
  const at = payload.indexOf('@');
  const number = parseLong(at < 0 ? payload : payload.slice(0, at));
  if (number === undefined && !live) return eventResponse(event, form);
  if (number === undefined || at < 0 || number < -1n) return linkResponse(event, undefined, form);
  const stream = payload.slice(at + 1);
  return linkResponse(event, log.readableEvent(stream, number === -1n ? log.lastRevision(stream) : number), form);
}
