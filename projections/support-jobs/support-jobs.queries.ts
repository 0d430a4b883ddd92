import type { DataSource } from 'typeorm';
import { OrderPaymentIdRow } from '../order-payment-ids/order-payment-ids.entity';
import { SupportJobRow } from './support-jobs.entity';
import { importRunJobId } from './support-jobs.projector';

export class SupportJobQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * GET /v1/support/search?q=: exact match on order id, customer id, provider reference, request id,
   * job id or import run id, and the jobs of `alsoOrders`, newest first. Each branch has its index
   * (see the entity); the OR of them stays a handful of index probes.
   */
  search(q: string, alsoOrders: readonly string[] = [], limit = 50): Promise<SupportJobRow[]> {
    return this.dataSource.getRepository(SupportJobRow).find({
      where: [
        { jobId: q },
        { jobId: importRunJobId(q) },
        { orderId: q },
        { customerId: q },
        { externalReference: q },
        { requestId: q },
        ...alsoOrders.map((orderId) => ({ orderId })),
      ],
      order: { updatedAt: 'DESC' },
      take: limit,
    });
  }

  /**
   * The orders whose events name this provider payment id (order_payment_ids): the intent or charge
   * that paid it, but also a declined earlier request's intent or a second payment the provider holds,
   * which no job row shows. Asked apart from `search` because as a subquery inside its OR it would
   * turn the index probes into a scan of every job.
   */
  async ordersNamingPayment(paymentId: string): Promise<string[]> {
    const named = await this.dataSource
      .getRepository(OrderPaymentIdRow)
      .find({ select: { orderId: true }, where: { paymentId }, take: 50 });
    return named.map((row) => row.orderId);
  }

  needingReview(limit = 100): Promise<SupportJobRow[]> {
    return this.dataSource
      .getRepository(SupportJobRow)
      .find({ where: { status: 'needs_review' }, order: { updatedAt: 'ASC' }, take: limit });
  }

  /** How many cases wait for a human, by kind of job (the (status, updated_at) index answers it). */
  async needingReviewByKind(): Promise<Array<{ kind: string; cases: number }>> {
    const rows: Array<{ kind: string; cases: string }> = await this.dataSource
      .getRepository(SupportJobRow)
      .createQueryBuilder('job')
      .select('job.kind', 'kind')
      .addSelect('count(*)', 'cases')
      .where('job.status = :status', { status: 'needs_review' })
      .groupBy('job.kind')
      .getRawMany();
    return rows.map((row) => ({ kind: row.kind, cases: Number(row.cases) }));
  }
}
