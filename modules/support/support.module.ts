import { Module } from '@nestjs/common';
import { ReconcileOrderController } from './reconcile-order/reconcile-order.controller';
import { ResolveReviewController } from './resolve-review/resolve-review.controller';

/** Support staff's actions: reconcile an order with the provider now, resolve a needs-review case. */
@Module({ controllers: [ReconcileOrderController, ResolveReviewController] })
export class SupportModule {}
