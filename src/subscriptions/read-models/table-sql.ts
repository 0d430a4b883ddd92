/**
 * The three statements a read-model batch needs, each one round trip whatever the batch size:
 * load the rows the batch touches, upsert the changed ones, delete the removed ones. Rows travel as
 * one JSON document: a single native JSON.stringify in Node and one C parser in PostgreSQL, instead
 * of escaping every value of every column into array literals.
 */
import type { PoolClient, QueryConfig } from 'pg';
import { decodeRow, type Row } from './row-codec';
import { assertIdentifier, type ColumnSpec, type TableSpec } from './table-spec';

/**
 * Rows as a JSON array of positional arrays (column names are not repeated per row, which would
 * triple the bytes sent); Dates become ISO strings, jsonb values stay nested.
 */
function toJson(columns: ColumnSpec[], rows: Row[]): string {
  return JSON.stringify(rows.map(tupleOf(columns)));
}

const tupleFunctions = new WeakMap<ColumnSpec[], (row: Row) => unknown[]>();

/**
 * `row => [row.a ?? null, row.b ?? null, …]`, compiled once per column list: a rebuild calls it for
 * every row it writes, and fixed property reads are several times faster than a loop over names.
 * The names are the entity's own property names, checked to be plain identifiers.
 */
function tupleOf(columns: ColumnSpec[]): (row: Row) => unknown[] {
  let tuple = tupleFunctions.get(columns);
  if (!tuple) {
    for (const c of columns) if (!/^[A-Za-z_$][\w$]*$/.test(c.prop)) throw new Error(`unexpected property name ${c.prop}`);
    // Compiled on purpose (hot path, one per column list); the property names were checked just above.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    tuple = new Function('row', `return [${columns.map((c) => `row.${c.prop} ?? null`).join(', ')}];`) as (row: Row) => unknown[];
    tupleFunctions.set(columns, tuple);
  }
  return tuple;
}

/** The rows of `$1` as a relation with the columns' names and types. */
const recordset = (columns: ColumnSpec[]) =>
  `(SELECT ${columns.map((c, i) => `(r->${c.type === 'jsonb' ? '' : '>'}${i})${c.type === 'jsonb' ? '' : `::${c.type}`} AS ${c.column}`).join(', ')} FROM jsonb_array_elements($1::jsonb) AS r) AS r`;
const list = (columns: ColumnSpec[], prefix = '') => columns.map((c) => `${prefix}${c.column}`).join(', ');

/**
 * One index probe per key, through a LATERAL join whose LIMIT 1 (one row per key: it is the primary
 * key) keeps the planner from flattening it into a plain join. Written as `pk IN (keys)`, or as the
 * join without the LIMIT, the planner costs the keys at jsonb_array_elements' default guess of 100
 * rows and, with statistics a little behind a growing table, hashes them and reads the whole table
 * on every batch (select-rows-plan.int.spec.ts; `orders_v1`'s select cost 2.1 ms a batch in
 * bench:charges, docs/BENCHMARKS.md).
 */
export async function selectRows(client: PoolClient, spec: TableSpec, table: string, keys: Row[]): Promise<Row[]> {
  if (!keys.length) return [];
  const query: QueryConfig = {
    name: `rm:${assertIdentifier(table)}:select`,
    text: `SELECT ${list(spec.columns, 't.')} FROM (SELECT DISTINCT ${list(spec.primary)} FROM ${recordset(spec.primary)}) k
             CROSS JOIN LATERAL (SELECT ${list(spec.columns)} FROM ${table} x WHERE ${spec.primary.map((c) => `x.${c.column} = k.${c.column}`).join(' AND ')} LIMIT 1) t`,
    values: [toJson(spec.primary, keys)],
  };
  const { rows } = await client.query(query);
  return rows.map((raw) => decodeRow(spec, raw));
}

export async function upsertRows(client: PoolClient, spec: TableSpec, table: string, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  const updates = spec.columns.filter((c) => !c.primary).map((c) => `${c.column} = EXCLUDED.${c.column}`);
  await client.query({
    name: `rm:${assertIdentifier(table)}:upsert`,
    text: `INSERT INTO ${table} (${list(spec.columns)}) SELECT ${list(spec.columns)} FROM ${recordset(spec.columns)}
           ON CONFLICT (${list(spec.primary)}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
    values: [toJson(spec.columns, rows)],
  });
}

/** Inserts the rows whose keys the table does not hold; a stored row is kept as it is. */
export async function insertRowsKeepingStored(client: PoolClient, spec: TableSpec, table: string, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  await client.query({
    name: `rm:${assertIdentifier(table)}:insert-new`,
    text: `INSERT INTO ${table} (${list(spec.columns)}) SELECT ${list(spec.columns)} FROM ${recordset(spec.columns)}
           ON CONFLICT (${list(spec.primary)}) DO NOTHING`,
    values: [toJson(spec.columns, rows)],
  });
}

export async function deleteRows(client: PoolClient, spec: TableSpec, table: string, keys: Row[]): Promise<void> {
  if (!keys.length) return;
  await client.query({
    name: `rm:${assertIdentifier(table)}:delete`,
    text: `DELETE FROM ${table} WHERE (${list(spec.primary)}) IN (SELECT ${list(spec.primary)} FROM ${recordset(spec.primary)})`,
    values: [toJson(spec.primary, keys)],
  });
}

/** Keyset pages in primary-key order, for verify. */
export async function selectPage(
  client: PoolClient,
  spec: TableSpec,
  table: string,
  after: Row | undefined,
  limit: number,
): Promise<Row[]> {
  const key = list(spec.primary);
  const where = after ? `WHERE (${key}) > (SELECT ${key} FROM ${recordset(spec.primary)})` : '';
  const values: unknown[] = after ? [toJson(spec.primary, [after])] : [];
  values.push(limit);
  const { rows } = await client.query(
    `SELECT ${list(spec.columns)} FROM ${table} ${where} ORDER BY ${key} LIMIT $${values.length}`,
    values,
  );
  return rows.map((raw) => decodeRow(spec, raw));
}
