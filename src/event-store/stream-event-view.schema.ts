/**
 * One recorded event in the OpenAPI document: as the `…/events` routes answer it (stream-event-view.ts)
 * and, with its stream and chain hash, as GET /v1/audit/events does. `data` is the event's own, by type
 * (DESIGN.md §4); `metadata` is described but nothing in it required: events recorded before a field
 * existed are answered as they were written.
 */
import type { SchemaObject } from '@nestjs/swagger';

export const EVENT_METADATA_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  properties: {
    correlationId: { type: 'string', description: 'The request (or job) the event came from.' },
    causationId: { type: 'string', description: 'What caused it: the request, or the job and its attempt.' },
    requestId: { type: 'string' },
    actor: {
      type: 'object',
      properties: {
        role: { type: 'string', example: 'storefront' },
        tokenId: { type: 'string', description: 'Which token of that role.' },
      },
    },
    recordedAt: { type: 'string', format: 'date-time', description: 'When the command handler recorded the event.' },
    previousEventHash: {
      type: 'string',
      nullable: true,
      description: "sha256 of the stream's event before this one (null for the first): the stream's hash chain (docs/AUDIT.md).",
    },
  },
};

const STREAM_EVENT_PROPERTIES: Record<string, SchemaObject> = {
  revision: { type: 'integer', minimum: 0, description: "The event's place in its stream, from 0." },
  position: { type: 'string', example: '829/1', description: "The event's place in the global order (GET /v1/audit/events?after=)." },
  id: { type: 'string', format: 'uuid' },
  type: { type: 'string', example: 'ChargeRequested' },
  data: { type: 'object', additionalProperties: true },
  metadata: EVENT_METADATA_SCHEMA,
  created: { type: 'string', format: 'date-time', description: "When the store committed it (the store's clock)." },
};

/** An event of the stream a route names (the stream itself is left out: the route says it). */
export const STREAM_EVENT_SCHEMA: SchemaObject = {
  type: 'object',
  required: Object.keys(STREAM_EVENT_PROPERTIES),
  properties: STREAM_EVENT_PROPERTIES,
};

/** An event of the whole history: the stream event with its stream. */
export const HISTORY_EVENT_PROPERTIES: Record<string, SchemaObject> = {
  position: STREAM_EVENT_PROPERTIES.position,
  stream: { type: 'string', example: 'order-481' },
  ...STREAM_EVENT_PROPERTIES,
};
