import type { DataSource } from 'typeorm';
import { ImportEventRow } from '../../../projections/import-events/import-events.entity';

/**
 * Contact records that an import recognised as already known and wrote nothing for: `duplicate` (the
 * same source event again) and `unchanged` (the same content again), over all runs. One pass over
 * import_events: the admin screen asks once per load, not per request of the product.
 */
export async function importRecordsAbsorbed(readModels: DataSource): Promise<{ duplicate: number; unchanged: number }> {
  const rows: Array<{ outcome: 'duplicate' | 'unchanged'; count: string }> = await readModels
    .getRepository(ImportEventRow)
    .createQueryBuilder('e')
    .select('e.outcome', 'outcome')
    .addSelect('count(*)', 'count')
    .where('e.outcome IN (:...absorbed)', { absorbed: ['duplicate', 'unchanged'] })
    .groupBy('e.outcome')
    .getRawMany();
  const countOf = (outcome: string) => Number(rows.find((row) => row.outcome === outcome)?.count ?? 0);
  return { duplicate: countOf('duplicate'), unchanged: countOf('unchanged') };
}
