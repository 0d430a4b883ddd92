import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DATABASE_POOL } from '../../src/database/database-pool';
import { GetOrderController } from './get-order/get-order.controller';
import { ReceiveWebhookController } from './receive-webhook/receive-webhook.controller';
import { migratePayments } from './payments.migrations';
import { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
import { RequestChargeController } from './request-charge/request-charge.controller';

/** The payments api: request a charge, read an order's payment state and history, provider webhooks. */
@Module({
  controllers: [RequestChargeController, GetOrderController, ReceiveWebhookController],
  providers: [{ provide: WebhookDeliveries, useFactory: (pool: Pool) => new WebhookDeliveries(pool), inject: [DATABASE_POOL] }],
})
export class PaymentsModule implements OnModuleInit {
  constructor(@Inject(DATABASE_POOL) private readonly pool: Pool) {}

  async onModuleInit(): Promise<void> {
    await migratePayments(this.pool);
  }
}
