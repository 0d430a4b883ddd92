/** The probes' answers in the OpenAPI document: liveness, and readiness with each check (200 up, 503 down). */
import type { SchemaObject } from '@nestjs/swagger';
import { HELD_BACK_NOTICE_SECONDS } from '../event-store/held-back';

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
    heldBack: {
      type: 'object',
      description:
        `Present while events written ${HELD_BACK_NOTICE_SECONDS} s ago or more wait for a transaction still in flight in the PostgreSQL cluster (no projection or ` +
        'reactor reads past them; their lag may say 0). It never makes the status down: every instance waits for the same transaction.',
      required: ['since', 'seconds', 'message'],
      properties: { since: { type: 'string', format: 'date-time' }, seconds: { type: 'number' }, message: { type: 'string' } },
    },
  },
};
