/**
 * `idem projections verify`: recomputes every row of a read-model version from the event log (the
 * read model's own `evolve`, folded over its streams up to the version's checkpoint) and compares it
 * with the stored row, column by column. The checkpoint and the rows are read in one snapshot, so a
 * runner committing meanwhile cannot produce false differences.
 */
import type { Pool } from 'pg';
import { compareCheckpoints } from '../../event-store/checkpoint';
import type { Checkpoint, EventStore } from '../../event-store/event-store.port';
import { readVersions } from '../checkpoint-store';
import { foldReadModel, type AnyReadModel } from './read-model';
import { versionTable } from './read-model.projection';
import { canonicalValue, keyString, type Row } from './row-codec';
import { tableSpecOf } from './table-spec';
import { selectPage } from './table-sql';

export interface RowDifference {
  key: string;
  kind: 'missing' | 'unexpected' | 'different';
  columns?: Array<{ column: string; expected: string | null; actual: string | null }>;
}

export interface VerifyReport {
  name: string;
  version: number;
  checkpoint: Checkpoint | undefined;
  rowsExpected: number;
  rowsStored: number;
  differences: RowDifference[];
}

export async function verifyReadModel(store: EventStore, pool: Pool, model: AnyReadModel, version?: number): Promise<VerifyReport> {
  const spec = tableSpecOf(model.entity);
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const versions = await readVersions(client, model.name);
    const target = version === undefined ? versions.find((v) => v.state === 'live') : versions.find((v) => v.version === version);
    if (!target || target.state === 'dropped') throw new Error(`${model.name}${version ? `@${version}` : ''} has no table to verify`);

    const expected = await foldUpTo(store, model, target.checkpoint);
    const report: VerifyReport = {
      name: model.name,
      version: target.version,
      checkpoint: target.checkpoint,
      rowsExpected: expected.size,
      rowsStored: 0,
      differences: [],
    };
    const table = versionTable(model.name, target.version);
    for (let after: Row | undefined; ;) {
      const page = await selectPage(client, spec, table, after, 5000);
      for (const stored of page) {
        const key = keyString(spec, stored);
        const wanted = expected.get(key) as Row | undefined;
        expected.delete(key);
        report.rowsStored++;
        if (!wanted) report.differences.push({ key, kind: 'unexpected' });
        else {
          const columns = spec.columns
            .map((c) => ({ column: c.column, expected: canonicalValue(c, wanted[c.prop]), actual: canonicalValue(c, stored[c.prop]) }))
            .filter((c) => c.expected !== c.actual);
          if (columns.length) report.differences.push({ key, kind: 'different', columns });
        }
      }
      if (page.length < 5000) break;
      after = page.at(-1);
    }
    for (const key of expected.keys()) report.differences.push({ key, kind: 'missing' });
    await client.query('COMMIT');
    return report;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Folds the read model's events from the start of history up to and including `checkpoint`. */
async function foldUpTo(store: EventStore, model: AnyReadModel, checkpoint: Checkpoint | undefined) {
  const rows = new Map<string, object>();
  if (!checkpoint) return rows;
  for (let after: Checkpoint | undefined; ;) {
    const page = await store.readAll({ after, maxCount: 1000, filter: model.filter });
    const inRange = page.filter((event) => compareCheckpoints(event.position, checkpoint) <= 0);
    foldReadModel(model, inRange, rows);
    if (inRange.length < page.length || page.length < 1000) return rows;
    after = page.at(-1)!.position;
  }
}
