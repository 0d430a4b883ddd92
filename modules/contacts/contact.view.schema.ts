/**
 * The contact routes' answers in the OpenAPI document: ContactView (contact.view.ts), a contact's events,
 * its import trail (the import_events read model) and the per-record answers of a pushed batch.
 * RunView's is in sync-runs/run-view.schema.ts.
 */
import type { SchemaObject } from '@nestjs/swagger';
import { STREAM_EVENT_SCHEMA } from '../../src/event-store/stream-event-view.schema';
import { IMPORT_OUTCOMES } from './contact.events';

const key = { source: { type: 'string', example: 'crm' }, sourceId: { type: 'string', example: '4419' } } as const;
const outcome: SchemaObject = { type: 'string', enum: [...IMPORT_OUTCOMES] };
const contactRevision: SchemaObject = {
  type: 'integer',
  minimum: 0,
  nullable: true,
  description: "The contact stream's revision after the record; null when the record never reached one (rejected).",
};

export const CONTACT_VIEW_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['source', 'sourceId', 'checksum', 'fields', 'revision'],
  properties: {
    ...key,
    version: { type: 'integer', minimum: 0, description: "The source's version of the record, when it gives one." },
    updatedAt: { type: 'string', format: 'date-time', description: "The source's updatedAt, when it gives one." },
    checksum: { type: 'string', description: 'Of the fields as imported (or as the source named it).' },
    sourceEventId: { type: 'string', description: "The source's id of the change, when it gives one." },
    fields: { type: 'object', additionalProperties: true },
    revision: { type: 'integer', minimum: 0, description: "The contact stream's revision this answer reflects (use it as ?minRevision=)." },
  },
};

export const CONTACT_EVENTS_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['source', 'sourceId', 'events'],
  properties: { ...key, events: { type: 'array', items: STREAM_EVENT_SCHEMA } },
};

export const IMPORT_TRAIL_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['source', 'sourceId', 'imports', 'next'],
  properties: {
    ...key,
    imports: {
      type: 'array',
      description: 'The runs that touched the record, oldest first, one page (`limit`, default 100); empty when none did.',
      items: {
        type: 'object',
        required: ['runId', 'seq', 'outcome', 'revision', 'recordedAt'],
        properties: {
          runId: { type: 'string', example: 'run.0b8e1c52-3f4a-4c2e-9d1b-7a6f5e4d3c2b' },
          seq: { type: 'integer', minimum: 0, description: "The record's place in its run." },
          outcome,
          reason: { type: 'string', description: 'Why: what a stale record lost to, what a rejected one got wrong, …' },
          version: { type: 'integer', minimum: 0, description: "The record's source version, when it had one." },
          eventId: { type: 'string', description: "The record's source event id, when it had one." },
          revision: contactRevision,
          recordedAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    next: {
      type: 'string',
      nullable: true,
      description: 'The `cursor` of the page after this one; null on the last page.',
    },
  },
};

export const IMPORT_ANSWER_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['runId', 'source', 'results', 'counts'],
  properties: {
    runId: { type: 'string', example: 'push.6f1c…', description: 'The push run recording these answers (its import_events rows).' },
    source: key.source,
    results: {
      type: 'array',
      description: 'One answer per record sent, in the order sent.',
      items: {
        type: 'object',
        required: ['sourceId', 'outcome', 'revision'],
        properties: {
          sourceId: { type: 'string', nullable: true, description: 'As sent; null when the record had no string sourceId.' },
          outcome,
          revision: contactRevision,
          reason: { type: 'string', description: 'Why the record was rejected, skipped as stale, or in conflict.' },
        },
      },
    },
    counts: {
      type: 'object',
      description: 'Records per outcome (outcomes no record had are left out).',
      properties: Object.fromEntries(IMPORT_OUTCOMES.map((name) => [name, { type: 'integer', minimum: 1 }])),
      additionalProperties: false,
    },
  },
};
