/**
 * Reads read-model rows back into their in-memory shape (what `evolve` produces and the entity
 * declares: numbers, Dates, plain objects, null), and gives each value one canonical form so verify
 * can compare a stored row with a recomputed one.
 */
import type { ColumnSpec, SqlType, TableSpec } from './table-spec';

export type Row = Record<string, unknown>;

/** From a `pg` result row (bigint arrives as text) to the in-memory shape. */
export function decodeRow(spec: TableSpec, raw: Row): Row {
  const row: Row = {};
  for (const column of spec.columns) {
    const value = raw[column.column];
    row[column.prop] = value === null || value === undefined ? null : decodeValue(column.type, value);
  }
  return row;
}

function decodeValue(type: SqlType, value: unknown): unknown {
  if (type === 'bigint') {
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw new Error(`bigint ${String(value)} does not fit a JS number`);
    return number;
  }
  if (type === 'timestamptz' && !(value instanceof Date)) return new Date(value as string);
  return value;
}

/** One string per value, equal exactly when PostgreSQL would store the same thing. */
export function canonicalValue(column: ColumnSpec, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'timestamptz':
      return (value instanceof Date ? value : new Date(value as string)).toISOString();
    case 'jsonb':
      return stableJson(value);
    default:
      return String(value);
  }
}

/** JSON with object keys sorted (jsonb does not keep key order). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.keys(value as Row)
      .filter((key) => (value as Row)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Row)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The row's primary-key values, as a string usable as a Map key (and readable in reports). */
export function keyString(spec: TableSpec, row: Row): string {
  if (spec.primary.length === 1) return String(row[spec.primary[0].prop]);
  return JSON.stringify(spec.primary.map((c) => row[c.prop]));
}
