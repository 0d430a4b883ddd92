import type { DataSource } from 'typeorm';
import { ImportEventRow, type ImportOutcome } from './import-events.entity';

export class ImportEventQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Outcome counts of one run (GET /v1/sync/runs/{runId}). */
  async outcomeCounts(runId: string): Promise<Partial<Record<ImportOutcome, number>>> {
    const rows = await this.dataSource
      .getRepository(ImportEventRow)
      .createQueryBuilder('e')
      .select('e.outcome', 'outcome')
      .addSelect('count(*)::int', 'count')
      .where('e.run_id = :runId', { runId })
      .groupBy('e.outcome')
      .getRawMany<{ outcome: ImportOutcome; count: number }>();
    return Object.fromEntries(rows.map((r) => [r.outcome, r.count]));
  }

  /** Every run that touched a source record, with the outcome and why, oldest first. */
  history(source: string, sourceId: string): Promise<ImportEventRow[]> {
    return this.dataSource.getRepository(ImportEventRow).find({ where: { source, sourceId }, order: { recordedAt: 'ASC', seq: 'ASC' } });
  }

  /** Has a source event id been seen before (in any run)? */
  async findBySourceEventId(eventId: string): Promise<ImportEventRow[]> {
    return this.dataSource.getRepository(ImportEventRow).findBy({ eventId });
  }
}
