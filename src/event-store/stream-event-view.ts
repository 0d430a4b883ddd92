/**
 * One event of a stream as the `…/events` routes answer it (GET /v1/orders/{id}/events,
 * GET /v1/contacts/{source}/{sourceId}/events): everything the store recorded but the stream name,
 * which the route already names.
 */
import type { RecordedEvent } from './event-store.port';

export const toStreamEventView = ({ revision, position, id, type, data, metadata, created }: RecordedEvent) => ({
  revision,
  position,
  id,
  type,
  data,
  metadata,
  created,
});
