import type { DataSource } from 'typeorm';
import { OrderPaymentIdRow } from '../order-payment-ids/order-payment-ids.entity';
import { SupportJobRow } from './support-jobs.entity';
import { importRunJobId } from './support-jobs.projector';

/** Where a list stands: the key it is ordered by (updated_at, then job_id). Times are JavaScript dates (milliseconds), as the projector writes them. */
export interface JobKey {
  updatedAt: Date;
  jobId: string;
}

/** A page: the jobs after `after` (from the start without it), at most `limit` of them. */
export interface JobsAfter {
  after?: JobKey;
  limit: number;
}

export class SupportJobQueries {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * GET /v1/support/search?q=: exact match on order id, customer id, provider reference, request id,
   * job id or import run id, and the jobs of `alsoOrders`, newest first (then by job id, so the order
   * is total and a page can start after any job). Each branch has its index (see the entity); the OR
   * of them stays a handful of index probes, and only the jobs of that one id are sorted.
   */
  search(q: string, alsoOrders: readonly string[] = [], { after, limit }: JobsAfter = { limit: 50 }): Promise<SupportJobRow[]> {
    const query = this.matching(q, alsoOrders);
    if (after) query.andWhere('(job.updatedAt, job.jobId) < (:at, :id)', { at: after.updatedAt, id: after.jobId });
    return query.orderBy('job.updatedAt', 'DESC').addOrderBy('job.jobId', 'DESC').limit(limit).getMany();
  }

  /** How many jobs `search` finds in all (the same index probes, counted). */
  countMatching(q: string, alsoOrders: readonly string[] = []): Promise<number> {
    return this.matching(q, alsoOrders).getCount();
  }

  private matching(q: string, alsoOrders: readonly string[]) {
    return this.dataSource
      .getRepository(SupportJobRow)
      .createQueryBuilder('job')
      .where(
        '(job.jobId IN (:...jobIds) OR job.orderId IN (:...orderIds) OR job.customerId = :q OR job.externalReference = :q OR job.requestId = :q)',
        { jobIds: [q, importRunJobId(q)], orderIds: [q, ...alsoOrders], q },
      );
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

  /**
   * The orders a customer or a request asked for (order_request_keys) that the job columns do not
   * show them on: an order declined for one customer, then requested again by another, whose job now
   * names only the later request. Only those are listed (the rest `search` finds by its own columns),
   * so a customer with thousands of orders adds no long list of ids. Asked apart from `search` for the
   * same reason as {@link ordersNamingPayment}.
   */
  async ordersRequestedBy(customerOrRequestId: string): Promise<string[]> {
    const rows: Array<{ order_id: string }> = await this.dataSource.query(
      `SELECT k.order_id FROM order_request_keys k
        WHERE k.key = $1
          AND NOT EXISTS (SELECT 1 FROM support_jobs j WHERE j.order_id = k.order_id AND (j.customer_id = $1 OR j.request_id = $1))
        LIMIT 1000`,
      [customerOrRequestId],
    );
    return rows.map((row) => row.order_id);
  }

  /** The cases in review, oldest first (then by job id), from after `after`. */
  needingReview({ after, limit }: JobsAfter = { limit: 100 }): Promise<SupportJobRow[]> {
    const query = this.dataSource
      .getRepository(SupportJobRow)
      .createQueryBuilder('job')
      .where('job.status = :status', { status: 'needs_review' });
    if (after) query.andWhere('(job.updatedAt, job.jobId) > (:at, :id)', { at: after.updatedAt, id: after.jobId });
    return query.orderBy('job.updatedAt', 'ASC').addOrderBy('job.jobId', 'ASC').limit(limit).getMany();
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
