/**
 * `resolveLinkTos` on reads and subscriptions, as `StorageReaderWorker.ResolveLinkToEvent` does it
 * (KurrentDB v24.10.5): an event of type `$>` (`SystemEventTypes.LinkTo`) whose data is
 * `"<eventNumber>@<stream>"` is answered as the event it points at, with itself as the link
 * (`ResolvedEvent.ForResolvedLink`); a target that cannot be read (deleted, truncated by `$tb` /
 * `$maxCount` / `$maxAge`, never written) leaves only the link (`ForFailedResolvedLink`); a payload whose
 * number does not parse is sent as a plain event (`ForUnresolvedEvent`). Without `resolveLinkTos` every
 * link is a plain event.
 */
import type { EventLog, StoredEvent } from './event-log';
import type { StreamsPb } from './proto';
import { eventResponse, linkResponse } from './wire';

export const LINK_TO = '$>';

export function readResponse(log: EventLog, event: StoredEvent, resolveLinks: boolean): StreamsPb.ReadResp {
  if (!resolveLinks || event.type !== LINK_TO) return eventResponse(event);
  // `linkPayload.Split('@', 2)` then `long.TryParse(parts[0])`.
  const payload = Buffer.from(event.data).toString('utf8');
  const at = payload.indexOf('@');
  const number = at < 0 ? payload : payload.slice(0, at);
  if (at < 0 || !/^\s*[+-]?\d+\s*$/.test(number)) return eventResponse(event);
  return linkResponse(event, log.readableEvent(payload.slice(at + 1), BigInt(number.trim())));
}
