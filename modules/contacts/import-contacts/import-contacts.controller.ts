/**
 * POST /v1/contacts/import — a source pushes up to 1,000 records; each is answered with what it
 * became (`{sourceId, outcome, revision}`), in the order sent. Re-sending a batch is harmless: every
 * record is judged against its contact's stream (import-contact.decision.ts). An Idempotency-Key
 * makes a retry get the original answers back (`Idempotent-Replayed: true`), not fresh judgements;
 * the same key with another body is 422, and while its first request is still running elsewhere 409
 * (push-claim.decision.ts).
 */
import { Body, Controller, Headers, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { BUSINESS_KEY } from '../../../src/errors/business-key';
import { IN_PROGRESS_RETRY_AFTER_SECONDS, parseIdempotencyKey } from '../../../src/errors/idempotency-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { parseImportRequest } from './import-request';
import { countOutcomes } from '../import-run.audit';
import { pushRunId, type RecordAnswer } from './push-run';
import { pushBatch } from './push-batch';
import { IMPORT_ANSWER_SCHEMA } from '../contact.view.schema';

/** 1,000 records with their fields; the rest of the api keeps the 64 KiB limit. */
export const MAX_IMPORT_BODY_BYTES = 5 * 1024 * 1024;

export interface ImportAnswer {
  runId: string;
  source: string;
  results: RecordAnswer[];
  counts: ReturnType<typeof countOutcomes>;
}

@Controller('v1/contacts')
export class ImportContactsController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Post('import')
  @Roles('sync')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'Every record answered, in the order sent (a replay under an Idempotency-Key: the original answers, Idempotent-Replayed: true).',
    schema: IMPORT_ANSWER_SCHEMA,
  })
  @RouteConfig({ bodyLimit: MAX_IMPORT_BODY_BYTES })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'A retry with the same key gets the original answers back; another body is 422 IDEMPOTENCY_KEY.REUSED; ' +
      `while the first request is still in progress, 409 IDEMPOTENCY_KEY.IN_PROGRESS with Retry-After: ${IN_PROGRESS_RETRY_AFTER_SECONDS} ` +
      '(taken over after 60 s of silence). ' +
      'Without a key, a request silent for 3 minutes mid-batch has its run ended by a worker as abandoned, and then gets 409 IMPORT.RUN_ABANDONED.',
  })
  @ApiBody({
    description: 'Up to 1,000 records; each is answered with its outcome, an invalid one is rejected on its own.',
    schema: {
      type: 'object',
      required: ['source', 'records'],
      properties: {
        source: { type: 'string', example: 'crm' },
        records: {
          type: 'array',
          minItems: 1,
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['sourceId'],
            properties: {
              sourceId: { type: 'string', pattern: BUSINESS_KEY.source },
              version: { type: 'integer', minimum: 0 },
              updatedAt: { type: 'string', format: 'date-time' },
              checksum: { type: 'string', maxLength: 128 },
              eventId: { type: 'string', maxLength: 128 },
              deleted: { type: 'boolean' },
              fields: { type: 'object', additionalProperties: true, description: 'Required unless deleted.' },
            },
          },
        },
      },
    },
  })
  async importContacts(
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKeyHeader: string | undefined,
    @CommandMetadata() metadata: CommandContext['metadata'],
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ImportAnswer> {
    const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
    const request = parseImportRequest(body);
    const runId = pushRunId(metadata.actor.tokenId, idempotencyKey);
    const { answers, replayed } = await pushBatch(this.store, request, { runId, keyed: idempotencyKey !== undefined }, metadata);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return { runId, source: request.source, results: answers, counts: countOutcomes(answers) };
  }
}
