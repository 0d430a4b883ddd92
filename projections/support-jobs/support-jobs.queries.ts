import type { DataSource } from 'typeorm';
import { SupportJobRow } from './support-jobs.entity';

export class SupportJobQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** GET /v1/support/search?q=: exact match on order id, customer id, provider reference, request id or job id. */
  search(q: string, limit = 50): Promise<SupportJobRow[]> {
    return this.dataSource.getRepository(SupportJobRow).find({
      where: [{ jobId: q }, { orderId: q }, { customerId: q }, { externalReference: q }, { requestId: q }],
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
