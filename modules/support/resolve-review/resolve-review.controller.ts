/** POST /v1/support/orders/{orderId}/resolve — close a needs-review case with a note. */
import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandMetadata } from '../../../src/auth/caller.decorator';
import { Roles } from '../../../src/auth/roles';
import { EVENT_STORE } from '../../../src/bootstrap/tokens';
import { handleCommand, type CommandContext } from '../../../src/command-handling/handle-command';
import { assertBusinessKey } from '../../../src/errors/business-key';
import type { EventStore } from '../../../src/event-store/event-store.port';
import { orderStream, resolveReviewDecider, toOrderView } from '../../payments';
import { ResolveReviewBody } from './resolve-review.body';

@Controller('v1/support/orders')
export class ResolveReviewController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Post(':orderId/resolve')
  @Roles('support')
  @HttpCode(200)
  async resolve(@Param('orderId') orderId: string, @Body() body: ResolveReviewBody, @CommandMetadata() metadata: CommandContext['metadata']) {
    assertBusinessKey('orderId', orderId);
    const actor = `${metadata.actor.role}:${metadata.actor.tokenId}`;
    const { state, revision } = await handleCommand(this.store, orderStream(orderId), resolveReviewDecider, { orderId, actor, note: body.note, resolution: body.resolution, requestId: String(metadata.requestId ?? metadata.correlationId) }, { metadata });
    return toOrderView(state, revision);
  }
}
