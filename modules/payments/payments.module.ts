import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DATABASE_POOL } from '../../src/bootstrap/tokens';
import { GetOrderController } from './get-order/get-order.controller';
import { ReceiveWebhookController } from './receive-webhook/receive-webhook.controller';
import { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
import { RequestChargeController } from './request-charge/request-charge.controller';

/** The payments api: request a charge, read an order's payment state and history, provider webhooks. */
@Module({
  controllers: [RequestChargeController, GetOrderController, ReceiveWebhookController],
  providers: [{ provide: WebhookDeliveries, useFactory: (pool: Pool) => new WebhookDeliveries(pool), inject: [DATABASE_POOL] }],
})
export class PaymentsModule implements OnModuleInit {
  constructor(@Inject(WebhookDeliveries) private readonly deliveries: WebhookDeliveries) {}

  async onModuleInit(): Promise<void> {
    await this.deliveries.migrate();
  }
}
