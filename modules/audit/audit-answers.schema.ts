/** The auditors' routes' answers in the OpenAPI document: a page of the history, and a verification report. */
import type { SchemaObject } from '@nestjs/swagger';
import { HISTORY_EVENT_PROPERTIES } from '../../src/event-store/stream-event-view.schema';
import type { BreakKind } from './verify-history/chain-break';

const HISTORY_EVENT_SCHEMA: SchemaObject = {
  type: 'object',
  required: [...Object.keys(HISTORY_EVENT_PROPERTIES), 'chainHash'],
  properties: {
    ...HISTORY_EVENT_PROPERTIES,
    chainHash: {
      type: 'string',
      nullable: true,
      description: 'The chain hash the audit chain recorded for the event; null while the projector has not linked it yet.',
    },
  },
};

export const HISTORY_PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['events', 'next'],
  properties: {
    events: { type: 'array', items: HISTORY_EVENT_SCHEMA },
    next: {
      type: 'string',
      nullable: true,
      description: "The last event's position when the page was full (pass it as ?after=); null: the end of the history for now.",
    },
  },
};

/** NDJSON: one history event (as in HISTORY_PAGE_SCHEMA's `events`) per line; `next` in the Idem-Next-After header. */
export const HISTORY_NDJSON_SCHEMA: SchemaObject = {
  type: 'string',
  description: 'One JSON event a line, each as an element of `events` in the JSON answer.',
};

/** A record, so that a kind added to BreakKind and not here does not compile. */
const BREAK_KINDS: Record<BreakKind, true> = {
  rewritten: true,
  reordered: true,
  missing: true,
  extra: true,
  seal_mismatch: true,
  link_mismatch: true,
  unlinked: true,
};
const orNull = (type: 'string' | 'integer'): SchemaObject => ({ type, nullable: true });

export const VERIFY_REPORT_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['ok', 'checked', 'sealsChecked', 'unchained'],
  properties: {
    ok: { type: 'boolean' },
    checked: { type: 'integer', minimum: 0, description: 'Chained events compared with the store before the first break.' },
    sealsChecked: { type: 'integer', minimum: 0, description: 'Seals whose digest was recomputed and matched.' },
    unchained: { type: 'integer', minimum: 0, description: "Events past the chain's end (not linked yet): not checked." },
    digest: { type: 'string', description: 'The running digest over everything checked: compare it with a seal or an export.' },
    firstBreak: {
      type: 'object',
      required: ['stream', 'revision', 'position', 'kind', 'expected', 'actual', 'detail'],
      description: 'Where the history first differs from what was chained (docs/AUDIT.md names each kind).',
      properties: {
        stream: orNull('string'),
        revision: orNull('integer'),
        position: orNull('string'),
        kind: { type: 'string', enum: Object.keys(BREAK_KINDS) },
        expected: orNull('string'),
        actual: orNull('string'),
        detail: { type: 'string' },
      },
    },
  },
};
