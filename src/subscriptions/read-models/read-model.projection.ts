/**
 * Runs a read model's pure `evolve` against its table inside the runner's transaction: load the rows
 * the batch touches (one SELECT), fold the batch over them in memory, write back only what changed
 * (one upsert, one delete). A row touched by many events of the batch is written once.
 *
 * A rebuild into a table it started empty also passes the keys it has written so far: rows it
 * never wrote are not looked up and go in with COPY instead of the upsert.
 */
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { Projection, ProjectionContext } from '../projection';
import { copyRows } from './copy-rows';
import { keysOf, type AnyReadModel } from './read-model';
import { keyString, type Row } from './row-codec';
import { tableSpecOf, type TableSpec } from './table-spec';
import { deleteRows, insertRowsKeepingStored, selectRows, upsertRows } from './table-sql';
import type { WrittenKeys } from './written-keys';

export const versionTable = (name: string, version: number) => `${name}_v${version}`;

export function readModelProjection(model: AnyReadModel): Projection {
  return {
    name: model.name,
    kind: 'read_model',
    filter: model.filter,
    handle: (events, context) => applyToTable(model, events, context),
  };
}

/** The projection of a rebuild into a table it started empty; `written` learns every key it writes. */
export function freshTableProjection(model: AnyReadModel, written: WrittenKeys): Projection {
  return {
    name: model.name,
    kind: 'read_model',
    filter: model.filter,
    handle: (events, context) => applyToTable(model, events, context, written),
  };
}

/** `written`: every key this table may hold (only a rebuild that started the table empty knows). */
export async function applyToTable(
  model: AnyReadModel,
  events: RecordedEvent[],
  context: ProjectionContext,
  written?: WrittenKeys,
): Promise<void> {
  const spec = tableSpecOf(model.entity);
  const table = versionTable(model.name, context.version);
  const keyed: Array<[string, RecordedEvent, Row]> = [];
  const keys = new Map<string, Row>();
  for (const event of events) {
    for (const key of keysOf(model, event) as Row[]) {
      const id = keyString(spec, key);
      keyed.push([id, event, key]);
      keys.set(id, key);
    }
  }
  if (!keyed.length) return;
  if (model.insertOnly && !written) return insertFirstRows(model, keyed, context, spec, table);

  const lookups: Row[] = [];
  for (const [id, key] of keys) if (!written || written.mayContain(id)) lookups.push(key);
  const stored = new Map<string, Row>();
  for (const row of await selectRows(context.client, spec, table, lookups)) stored.set(keyString(spec, row), row);

  const current = new Map(stored);
  const changed = new Set<string>();
  for (const [id, event, key] of keyed) {
    const before = current.get(id);
    const after = model.evolve(before, event, key) as Row | undefined;
    if (after === before) continue;
    changed.add(id);
    if (after === undefined) current.delete(id);
    else current.set(id, after);
  }

  const upserts: Row[] = [];
  const inserts: Row[] = [];
  const deletes: Row[] = [];
  for (const id of changed) {
    const row = current.get(id);
    if (!row) {
      if (stored.has(id)) deletes.push(keys.get(id)!);
    } else if (written && !stored.has(id)) {
      inserts.push(row);
      written.add(id);
    } else upserts.push(row);
  }
  await deleteRows(context.client, spec, table, deletes);
  await upsertRows(context.client, spec, table, upserts);
  await copyRows(context.client, spec, table, inserts);
}

/**
 * An insert-only model's batch: each key's row as this batch alone makes it, inserted unless the table
 * holds the key already. The same table as looking up and folding: a stored row would be kept by
 * `evolve` as it is, and ON CONFLICT DO NOTHING keeps it.
 */
async function insertFirstRows(
  model: AnyReadModel,
  keyed: Array<[string, RecordedEvent, Row]>,
  context: ProjectionContext,
  spec: TableSpec,
  table: string,
): Promise<void> {
  const rows = new Map<string, Row | undefined>();
  for (const [id, event, key] of keyed) rows.set(id, model.evolve(rows.get(id), event, key) as Row | undefined);
  const inserts = [...rows.values()].filter((row): row is Row => row !== undefined);
  await insertRowsKeepingStored(context.client, spec, table, inserts);
}
