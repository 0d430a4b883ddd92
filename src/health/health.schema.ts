/** The probes' answers in the OpenAPI document: liveness, and readiness with each check (200 up, 503 down). */
import type { SchemaObject } from '@nestjs/swagger';

const STATUS: SchemaObject = { type: 'string', enum: ['up', 'down'] };

export const LIVE_SCHEMA: SchemaObject = { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['up'] } } };

const CHECK_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['status'],
  properties: { status: STATUS, error: { type: 'string', description: 'Why the check is down.' } },
};

export const READY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: STATUS,
    checks: {
      type: 'object',
      required: ['database', 'eventStore', 'jobQueue', 'projectionLag'],
      properties: { database: CHECK_SCHEMA, eventStore: CHECK_SCHEMA, jobQueue: CHECK_SCHEMA, projectionLag: CHECK_SCHEMA },
    },
  },
};
