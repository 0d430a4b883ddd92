/**
 * RunView (import-run.view.ts) in the OpenAPI document: one run as POST /v1/sync/runs, GET
 * /v1/sync/runs/{runId} and each entry of GET /v1/sync/runs answer it.
 */
import type { SchemaObject } from '@nestjs/swagger';
import { IMPORT_OUTCOMES } from '../contact.events';
import { RUN_STATUSES } from '../import-run.state';

const count = { type: 'integer', minimum: 0 };

export const RUN_VIEW_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['runId', 'source', 'kind', 'status', 'processed', 'pages', 'counts', 'cursor', 'sourceIdentity'],
  properties: {
    runId: { type: 'string', example: 'run.0b8e1c52-3f4a-4c2e-9d1b-7a6f5e4d3c2b' },
    source: { type: 'string', example: 'crm' },
    kind: { type: 'string', enum: ['pull', 'file', 'push'] },
    status: { type: 'string', enum: [...RUN_STATUSES] },
    processed: count,
    pages: count,
    counts: { type: 'object', properties: Object.fromEntries(IMPORT_OUTCOMES.map((outcome) => [outcome, count])) },
    cursor: { type: 'string', nullable: true, description: 'Where the next page starts; null at the start or when nothing is left.' },
    sourceIdentity: {
      type: 'string',
      nullable: true,
      example: 'http://127.0.0.1:3100',
      description:
        'A pull run: the CRM it is driven against, as it recorded it when it started, or the address an ' +
        '`idem sync resume --source-moved` recorded since. Null for file and push runs, for a source that names ' +
        'no address, and for runs recorded before runs named their CRM. In the list, also null for runs the ' +
        'read model projected before it had this column, until `idem projections rebuild sync_runs`.',
    },
    reason: { type: 'string', description: 'Why the run failed or needs review; absent otherwise.' },
    startedAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const RUN_LIST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['runs', 'next'],
  properties: {
    runs: { type: 'array', items: RUN_VIEW_SCHEMA },
    next: { type: 'string', nullable: true, description: 'The `cursor` of the next page; null after a page shorter than `limit`.' },
  },
};
