import { Module } from '@nestjs/common';
import { GetOrderController } from './get-order/get-order.controller';
import { RequestChargeController } from './request-charge/request-charge.controller';

/** The payments api: request a charge, read an order's payment state and history. */
@Module({ controllers: [RequestChargeController, GetOrderController] })
export class PaymentsModule {}
