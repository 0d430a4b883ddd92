/**
 * The OpenAPI description of `?minRevision=` (read-your-writes on GET /v1/orders/{orderId} and
 * GET /v1/contacts/{source}/{sourceId}): optional, which Nest's document generator cannot tell from a
 * bare `@Query('minRevision')`.
 */
import { ApiQuery } from '@nestjs/swagger';

export const MinRevisionQuery = () =>
  ApiQuery({
    name: 'minRevision',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description: 'The revision your last write answered: the read waits for it (folded from the stream if the read model lags).',
  });
