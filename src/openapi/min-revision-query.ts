/**
 * The OpenAPI description of `?minRevision=` (read-your-writes on GET /v1/orders/{orderId} and
 * GET /v1/contacts/{source}/{sourceId}): optional, which Nest's document generator cannot tell from a
 * bare `@Query('minRevision')`. The stream is the truth the read model follows, so a read that needs a
 * revision the read model lacks folds the stream instead of waiting; the body's `revision` says what it
 * holds (no header needed for a client to see its write is missing).
 */
import { ApiQuery } from '@nestjs/swagger';

export const MinRevisionQuery = () =>
  ApiQuery({
    name: 'minRevision',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description:
      'The `revision` your last write answered. Without it the answer comes from the read model, which may lag the stream by ' +
      'a moment. With it, a read model older than that revision is passed over and the answer is folded from the stream at ' +
      'once, so it holds every write the stream has. Nothing waits: a revision beyond the stream (a write that was never ' +
      'recorded, or another key) is answered 200 at once with the stream as it is and its own, lower `revision` — compare ' +
      'it with the one you asked for to tell whether your write is there.',
  });
