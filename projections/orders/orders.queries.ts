import type { DataSource } from 'typeorm';
import type { OrderView } from '../../modules/payments/order.view';
import { OrderRow, type OrderStatus } from './orders.entity';

/** GET /v1/orders/{orderId} (DESIGN.md §6): the same shape the payments module folds from the stream. */
export type { OrderView };

export class OrderQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** The order's payment state, or null when no charge was ever requested for it (404). */
  async findOrder(orderId: string): Promise<OrderView | null> {
    const row = await this.dataSource.getRepository(OrderRow).findOneBy({ orderId });
    return row ? orderViewFromRow(row) : null;
  }

  /** Orders stuck in `statuses` whose last change is older than `before` (the recovery job's window). */
  async findStuckOrders(statuses: OrderStatus[], updatedAfter: Date, updatedBefore: Date, limit: number): Promise<OrderView[]> {
    const rows = await this.dataSource
      .getRepository(OrderRow)
      .createQueryBuilder('o')
      .where('o.status IN (:...statuses)', { statuses })
      .andWhere('o.updated_at >= :after AND o.updated_at < :before', { after: updatedAfter, before: updatedBefore })
      .orderBy('o.updated_at', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(orderViewFromRow);
  }
}

export function orderViewFromRow(row: OrderRow): OrderView {
  return {
    orderId: row.orderId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    customerId: row.customerId,
    ...(row.providerChargeId ? { providerChargeId: row.providerChargeId } : {}),
    ...(row.paymentIntentId ? { paymentIntentId: row.paymentIntentId } : {}),
    attempts: row.attempts,
    ...(row.lastError ? { lastError: row.lastError } : {}),
    ...(row.lastAttemptAt ? { lastAttemptAt: row.lastAttemptAt.toISOString() } : {}),
    updatedAt: row.updatedAt.toISOString(),
    revision: row.revision,
  };
}
