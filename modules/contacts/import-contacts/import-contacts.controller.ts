/**
 * POST /v1/contacts/import — a source pushes up to 1,000 records; each is answered with what it
 * became (`{sourceId, outcome, revision}`), in the order sent. Re-sending a batch is harmless: every
 * record is judged against its contact's stream (import-contact.decision.ts). An Idempotency-Key
 * makes a retry get the original answers back (`Idempotent-Replayed: true`), not fresh judgements.
 */
import { Body, Controller, Headers, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiHeader } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/event-store/event-store.port';
import type { CommandContext } from '../../../src/command-handling/handle-command';
import { toEventToAppend } from '../../../src/command-handling/event-to-append';
import { appendLinked } from '../../../src/command-handling/append-linked';
import { AppError } from '../../../src/errors/app-error';
import { BUSINESS_KEY } from '../../../src/errors/business-key';
import { parseIdempotencyKey } from '../../../src/errors/idempotency-key';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { importStream } from '../contact.events';
import { importItems } from './import-records';
import { parseImportRequest, type ImportRequest } from './import-request';
import { countOutcomes } from '../import-run.audit';
import { pushRunEvents, pushRunId, recordedPush, toAnswer, type RecordAnswer } from './push-run';

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
  @RouteConfig({ bodyLimit: MAX_IMPORT_BODY_BYTES })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A retry with the same key gets the original answers back.' })
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
    const stream = importStream(runId);
    if (idempotencyKey) {
      const replay = await this.replay(stream, request);
      if (replay) return this.replayed(reply, runId, request.source, replay);
    }

    const results = await importItems(this.store, request.source, runId, request.items, metadata);

    const recordedAt = new Date().toISOString();
    // Ids of this request's own (a store retry of this append is still recognised as the same): two
    // requests racing under one Idempotency-Key must not be taken for one append, or the second would
    // be answered its own fresh judgements instead of the first one's answers.
    const attempt = randomUUID();
    const events = pushRunEvents(runId, request.source, metadata.actor.role, request.fingerprint, results).map((event, i) =>
      toEventToAppend(stream, { event, key: `push/${attempt}/${i}` }, metadata, recordedAt),
    );
    try {
      await appendLinked(this.store, stream, events, 'no_stream');
    } catch (error) {
      // The same key, concurrently: the first to record its answers is the answer for both.
      const replay = error instanceof WrongExpectedVersion && idempotencyKey ? await this.replay(stream, request) : undefined;
      if (!replay) throw error;
      return this.replayed(reply, runId, request.source, replay);
    }
    const answers = results.map(toAnswer);
    return { runId, source: request.source, results: answers, counts: countOutcomes(answers) };
  }

  private async replay(stream: string, request: ImportRequest): Promise<RecordAnswer[] | undefined> {
    const recorded = recordedPush(await this.store.readStream(stream));
    if (!recorded) return undefined;
    if (recorded.requestFingerprint !== request.fingerprint && recorded.requestFingerprint !== request.legacyFingerprint()) {
      throw new AppError(
        'unprocessable',
        'IDEMPOTENCY_KEY.REUSED',
        'This Idempotency-Key was already used with a different request body',
        {},
      );
    }
    return recorded.answers;
  }

  private replayed(reply: FastifyReply, runId: string, source: string, answers: RecordAnswer[]): ImportAnswer {
    void reply.header('idempotent-replayed', 'true');
    return { runId, source, results: answers, counts: countOutcomes(answers) };
  }
}
