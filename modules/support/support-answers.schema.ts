/** The support routes' answers in the OpenAPI document: a page of jobs, the screen's header, a reconcile. */
import type { SchemaObject } from '@nestjs/swagger';
import { ORDER_VIEW_SCHEMA } from '../payments';
import type { SupportJobKind, SupportJobStatus } from '../../projections/support-jobs/support-jobs.entity';

/** Records, so that a kind or status added to the read model and not here does not compile. */
const KINDS: Record<SupportJobKind, true> = { 'charge-order': true, 'import-run': true };
const STATUSES: Record<SupportJobStatus, true> = { pending: true, done: true, failed: true, needs_review: true };
const nullableText = (description: string): SchemaObject => ({ type: 'string', nullable: true, description });

/** One job as support sees it (search-jobs/support-job.view.ts). */
const SUPPORT_JOB_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['kind', 'jobId', 'requestId', 'externalReference', 'status', 'attempts', 'lastError', 'lastRetryAt', 'updatedAt', 'revision'],
  properties: {
    kind: { type: 'string', enum: Object.keys(KINDS) },
    orderId: { type: 'string', description: 'A charge job only.' },
    customerId: { type: 'string', description: 'A charge job only.' },
    jobId: { type: 'string', example: 'charge-order:481' },
    requestId: { type: 'string', description: 'Correlation id of the request that started the job.' },
    externalReference: nullableText("A charge's provider reference (charge or intent id); an import's source."),
    status: { type: 'string', enum: Object.keys(STATUSES) },
    attempts: { type: 'integer', minimum: 0 },
    lastError: nullableText('The error that stands now, if any.'),
    lastRetryAt: { type: 'string', format: 'date-time', nullable: true, description: 'Start of the latest attempt after the first.' },
    updatedAt: { type: 'string', format: 'date-time' },
    revision: {
      type: 'integer',
      minimum: 0,
      description:
        "The revision of the job's stream (order-<orderId>, import-<runId>) this row shows. The list is a read model a moment " +
        'behind the stream: after an action answered with the order at revision r, the row shows that action once its revision is ≥ r.',
    },
  },
};

export const JOB_PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['results', 'total', 'next'],
  properties: {
    results: { type: 'array', items: SUPPORT_JOB_SCHEMA },
    total: { type: 'integer', minimum: 0, description: 'Every job the list holds now, on all pages.' },
    next: { type: 'string', nullable: true, description: 'The `cursor` of the next page; null on the last page.' },
  },
};

const count = { type: 'integer', minimum: 0 } as const;

export const OVERVIEW_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['duplicatesAbsorbed', 'projections'],
  properties: {
    duplicatesAbsorbed: {
      type: 'object',
      required: ['replayedAnswers', 'importRecords'],
      properties: {
        replayedAnswers: {
          type: 'object',
          required: ['count', 'since'],
          description: 'Duplicate requests this api process answered with the original answer, since it started.',
          properties: { count, since: { type: 'string', format: 'date-time' } },
        },
        importRecords: {
          type: 'object',
          required: ['duplicate', 'unchanged'],
          description: 'Imported records that changed nothing, from import_events.',
          properties: { duplicate: count, unchanged: count },
        },
      },
    },
    projections: {
      type: 'array',
      nullable: true,
      description: 'How far the read models this screen reads lag behind the log; null when the event store did not answer in time.',
      items: {
        type: 'object',
        required: ['name', 'version', 'lagEvents', 'lagEventsAtLeast', 'lagSeconds'],
        properties: {
          name: { type: 'string', example: 'support_jobs' },
          version: { type: 'integer', minimum: 1 },
          lagEvents: { ...count, description: 'Events not projected yet (counted up to 1,000).' },
          lagEventsAtLeast: { type: 'boolean', description: 'True when the count stopped at its cap: at least that many.' },
          lagSeconds: { type: 'number', minimum: 0 },
        },
      },
    },
    projectionsError: { type: 'string', description: 'Why `projections` is null.' },
  },
};

const RECONCILED_STATUS = { type: 'string', enum: [...(ORDER_VIEW_SCHEMA.properties!.status as SchemaObject).enum!, 'none'] };

export const RECONCILE_ANSWER_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['orderId', 'oldStatus', 'newStatus', 'reason', 'order'],
  properties: {
    orderId: { type: 'string' },
    oldStatus: RECONCILED_STATUS,
    newStatus: RECONCILED_STATUS,
    reason: { type: 'string', description: 'What recovery found and did, in one sentence.' },
    error: { type: 'string', description: 'Recovery failed: nothing was recorded and the order stays as it was.' },
    order: { ...ORDER_VIEW_SCHEMA, nullable: true, description: 'The order after recovery.' },
  },
};
