/**
 * A read model: one table (versioned as `<name>_v<n>`, read through the `<name>` view) whose rows are
 * a pure fold of events. The same `evolve` runs in the live runner, in rebuilds and in verify, so
 * "the read model equals a fold of its streams" (DESIGN.md §9.6) is checkable row by row.
 */
import type { EventFilter, RecordedEvent } from '../../event-store/event-store.port';
import { matchesFilter } from '../event-filter';
import { keyString, type Row } from './row-codec';
import { tableSpecOf } from './table-spec';

export interface ReadModel<R extends object = Row> {
  /** Reader-facing view name and table prefix, e.g. `orders` → `orders_v1`. */
  readonly name: string;
  /** TypeORM entity describing the row (mapped to the view `name`). */
  readonly entity: new () => R;
  readonly filter: EventFilter;
  /**
   * The primary-key fields of the row an event concerns; undefined when it concerns none. A list when
   * one event concerns several rows (e.g. one row per payment id the event names).
   */
  keyOf(event: RecordedEvent): Partial<R> | ReadonlyArray<Partial<R>> | undefined;
  /**
   * Pure. Returns the row after the event, the same object when nothing changes, undefined to delete.
   * The kernel passes `key`, the row's key as `keyOf` gave it: a row the event creates may be one of
   * several it names (a read model with one row per event reads the key from the event and ignores it).
   */
  evolve(row: R | undefined, event: RecordedEvent, key?: Partial<R>): R | undefined;
  /**
   * Rows are written once and never changed or deleted: `evolve` returns a row it is given as it is,
   * so the first event that names a key decides its row. The live runner then writes a batch with one
   * statement (INSERT … ON CONFLICT DO NOTHING) instead of looking the rows up first: in a live batch
   * of a few events the statements, not the rows, are the cost.
   */
  readonly insertOnly?: boolean;
}

export type AnyReadModel = ReadModel<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The rows a read model should hold after `events` (in log order), keyed by `rowKey`. */
export function foldReadModel<R extends object>(
  model: ReadModel<R>,
  events: Iterable<RecordedEvent>,
  rows = new Map<string, R>(),
): Map<string, R> {
  for (const event of events) {
    if (!matchesFilter(model.filter, event)) continue;
    for (const key of keysOf(model, event)) {
      const id = rowKey(model, key);
      const next = model.evolve(rows.get(id), event, key);
      if (next === undefined) rows.delete(id);
      else rows.set(id, next);
    }
  }
  return rows;
}

/** The keys of every row an event concerns, in the order `keyOf` gave them (none, one or several). */
export function keysOf<R extends object>(model: ReadModel<R>, event: RecordedEvent): ReadonlyArray<Partial<R>> {
  const keys = model.keyOf(event);
  if (!keys) return [];
  return Array.isArray(keys) ? keys : [keys as Partial<R>];
}

export function rowKey(model: AnyReadModel, keyOrRow: object): string {
  return keyString(tableSpecOf(model.entity), keyOrRow as Row);
}
