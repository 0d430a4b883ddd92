/**
 * A read model's physical table, read from its TypeORM entity so the entity stays the one
 * description of the columns: the query side reads through TypeORM, the runner writes with bulk SQL
 * built from the same metadata, and each version's `CREATE TABLE` is generated from it too.
 *
 * Entities must name every column (`name: 'order_id'`) and give its PostgreSQL type explicitly.
 */
import { getMetadataArgsStorage } from 'typeorm';

export type SqlType = 'text' | 'bigint' | 'integer' | 'boolean' | 'timestamptz' | 'jsonb';

export interface ColumnSpec {
  column: string;
  prop: string;
  type: SqlType;
  nullable: boolean;
  primary: boolean;
}

export interface IndexSpec {
  columns: string[];
  unique: boolean;
  where?: string;
}

export interface TableSpec {
  columns: ColumnSpec[];
  primary: ColumnSpec[];
  indexes: IndexSpec[];
}

const TYPE_ALIASES: Record<string, SqlType> = {
  text: 'text',
  bigint: 'bigint',
  int8: 'bigint',
  integer: 'integer',
  int: 'integer',
  int4: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  timestamptz: 'timestamptz',
  'timestamp with time zone': 'timestamptz',
  jsonb: 'jsonb',
};

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`"${name}" is not a plain lower-case SQL identifier`);
  return name;
}

const cache = new WeakMap<Function, TableSpec>();

export function tableSpecOf(entity: Function): TableSpec {
  const cached = cache.get(entity);
  if (cached) return cached;
  const storage = getMetadataArgsStorage();
  const columns = storage.filterColumns(entity).map((args): ColumnSpec => {
    const where = `${entity.name}.${args.propertyName}`;
    const type = TYPE_ALIASES[String(args.options.type)];
    if (!type) throw new Error(`${where}: give an explicit column type (one of ${Object.keys(TYPE_ALIASES).join(', ')})`);
    if (!args.options.name) throw new Error(`${where}: give an explicit snake_case column name`);
    return {
      column: assertIdentifier(args.options.name),
      prop: args.propertyName,
      type,
      nullable: Boolean(args.options.nullable),
      primary: Boolean(args.options.primary),
    };
  });
  const primary = columns.filter((c) => c.primary);
  if (!primary.length) throw new Error(`${entity.name}: a read-model entity needs a primary key`);
  const byProp = new Map(columns.map((c) => [c.prop, c.column]));
  const indexes = storage.filterIndices(entity).map((args): IndexSpec => {
    if (!Array.isArray(args.columns)) throw new Error(`${entity.name}: list @Index columns as property names`);
    return {
      columns: args.columns.map((prop) => byProp.get(prop) ?? assertIdentifier(prop)),
      unique: Boolean(args.unique),
      where: args.where,
    };
  });
  const spec = { columns, primary, indexes };
  cache.set(entity, spec);
  return spec;
}

export function createTableSql(spec: TableSpec, table: string): string {
  const columns = spec.columns.map((c) => `${c.column} ${c.type}${c.nullable ? '' : ' NOT NULL'}`);
  columns.push(`PRIMARY KEY (${spec.primary.map((c) => c.column).join(', ')})`);
  return `CREATE TABLE ${assertIdentifier(table)} (\n  ${columns.join(',\n  ')}\n)`;
}

/** Secondary indexes, built after a rebuild's bulk load (cheaper than maintaining them row by row). */
export function createIndexSql(spec: TableSpec, table: string): string[] {
  return spec.indexes.map((index) => {
    const name = assertIdentifier(`${table}_${index.columns.join('_')}`.slice(0, 63));
    const where = index.where ? ` WHERE ${index.where}` : '';
    return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${table} (${index.columns.join(', ')})${where}`;
  });
}
