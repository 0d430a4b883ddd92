import { type DynamicModule, Module } from '@nestjs/common';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { OrderQueries } from '../../projections/orders/orders.queries';
import { IDEM_CONFIG, type IdemConfig } from '../../src/config/config';
import { DATABASE_POOL } from '../../src/database/database-pool';
import { READ_MODEL_DATA_SOURCE } from '../../src/database/data-source';
import { GetOrderController } from './get-order/get-order.controller';
import { ORDER_READ_MODEL } from './get-order/order-read-model.port';
import { PAYMENT_GATEWAY, type PaymentGateway } from './payment-gateway/payment-gateway.port';
import { ReceiveWebhookController } from './receive-webhook/receive-webhook.controller';
import { WebhookDeliveries } from './receive-webhook/webhook-deliveries';
import { RequestChargeController } from './request-charge/request-charge.controller';
import { RequestKeys } from './request-charge/request-keys';

/** The payments api: request a charge, read an order's payment state and history, provider webhooks. */
@Module({})
export class PaymentsModule {
  /** With the gateway `gatewayFor` builds from the process's configuration. */
  static withGateway(gatewayFor: (config: IdemConfig) => PaymentGateway): DynamicModule {
    return {
      module: PaymentsModule,
      // Global: support's actions ask the provider through this same gateway.
      global: true,
      controllers: [RequestChargeController, GetOrderController, ReceiveWebhookController],
      providers: [
        { provide: WebhookDeliveries, useFactory: (pool: Pool) => new WebhookDeliveries(pool), inject: [DATABASE_POOL] },
        { provide: RequestKeys, useFactory: (pool: Pool) => new RequestKeys(pool), inject: [DATABASE_POOL] },
        { provide: PAYMENT_GATEWAY, useFactory: gatewayFor, inject: [IDEM_CONFIG] },
        { provide: ORDER_READ_MODEL, useFactory: (source: DataSource) => new OrderQueries(source), inject: [READ_MODEL_DATA_SOURCE] },
      ],
      exports: [PAYMENT_GATEWAY, ORDER_READ_MODEL],
    };
  }
}
