/**
 * The freshness rule (issue 14, DESIGN.md §9 invariant 5): which of two records of one contact is
 * the fresher. One total order, so that every delivery order ends in the same state:
 * 1. the source's `version`; a record without one is older than any record with one (a source that
 *    versions its records may still send a bare `updatedAt` update, and it must not undo a version);
 * 2. `updatedAt`, compared at its full precision (iso-date-time.ts), a record without one older than
 *    any record with one;
 * 3. the greater checksum, then the greater source event id (plain string order).
 * Two exceptions. Under one version, another checksum is contradictory source data (`conflict`): a
 * source must not state two contents under one version; the same checksum is the same content, ranked
 * by updatedAt alone (a later one is a touch) and, with the same updatedAt, the same record whatever
 * its event id. And only when NEITHER record carries a version or an updatedAt is there nothing to
 * order by: then the later arrival wins.
 */
import type { Freshness } from '../contact.events';
import { compareIsoDateTimes } from './iso-date-time';

export type Comparison = 'fresher' | 'same' | 'older' | 'conflict';

export function compareFreshness(incoming: Freshness, stored: Freshness): Comparison {
  const byVersion = present(incoming.sourceVersion, stored.sourceVersion, (a, b) => a - b);
  if (byVersion !== 0) return ranked(byVersion);
  const byTime = present(incoming.sourceUpdatedAt, stored.sourceUpdatedAt, compareIsoDateTimes);
  if (incoming.sourceVersion !== undefined) {
    if (incoming.checksum !== stored.checksum) return 'conflict';
    return byTime === 0 ? 'same' : ranked(byTime);
  }
  if (byTime !== 0) return ranked(byTime);
  // Nothing to order by: the later arrival wins, unless it states the same content.
  if (incoming.sourceUpdatedAt === undefined) return incoming.checksum === stored.checksum ? 'same' : 'fresher';
  const byChecksum = order(incoming.checksum, stored.checksum);
  if (byChecksum !== 'same') return byChecksum;
  return order(incoming.sourceEventId ?? '', stored.sourceEventId ?? '');
}

/** Compares two optional keys: absent ranks below present; both absent tie. */
function present<T>(a: T | undefined, b: T | undefined, compare: (a: T, b: T) => number): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return compare(a, b);
}

const ranked = (sign: number): Comparison => (sign > 0 ? 'fresher' : 'older');
const order = (a: string, b: string): Comparison => (a === b ? 'same' : a > b ? 'fresher' : 'older');

/** How a freshness reads in an audit reason: `version 7`, `updatedAt 2026-…`, with its checksum. */
export function describeFreshness(f: Freshness): string {
  const parts = [];
  if (f.sourceVersion !== undefined) parts.push(`version ${f.sourceVersion}`);
  if (f.sourceUpdatedAt !== undefined) parts.push(`updatedAt ${f.sourceUpdatedAt}`);
  parts.push(`checksum ${f.checksum}`);
  if (f.sourceEventId !== undefined) parts.push(`event ${f.sourceEventId}`);
  return parts.join(', ');
}
