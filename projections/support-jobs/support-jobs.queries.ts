import { Raw, type DataSource } from 'typeorm';
import { SupportJobRow } from './support-jobs.entity';
import { importRunJobId } from './support-jobs.projector';

export class SupportJobQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * GET /v1/support/search?q=: exact match on order id, customer id, provider reference, request id,
   * job id or import run id, newest first. A paid order's row holds its charge id; the intent id the
   * customer's bank statement or Stripe's dashboard may show instead is found through `orders`.
   * Every branch is an index probe (see the entity's indexes and orders' payment_intent_id index).
   */
  search(q: string, limit = 50): Promise<SupportJobRow[]> {
    const byPaymentIntent = Raw((orderId) => `${orderId} IN (SELECT order_id FROM orders WHERE payment_intent_id = :q)`, { q });
    return this.dataSource.getRepository(SupportJobRow).find({
      where: [
        { jobId: q },
        { jobId: importRunJobId(q) },
        { orderId: q },
        { customerId: q },
        { externalReference: q },
        { requestId: q },
        { orderId: byPaymentIntent },
      ],
      order: { updatedAt: 'DESC' },
      take: limit,
    });
  }

  needingReview(limit = 100): Promise<SupportJobRow[]> {
    return this.dataSource
      .getRepository(SupportJobRow)
      .find({ where: { status: 'needs_review' }, order: { updatedAt: 'ASC' }, take: limit });
  }
}
