/**
 * The freshness rule (issue 14, DESIGN.md §9 invariant 5): which of two records of one contact is
 * the fresher. The source's `version` when both records give one, else `updatedAt` when both give
 * one, else arrival order. Ties are settled without looking at arrival, so every delivery order ends
 * in the same state:
 * - same version: the same checksum is the same record; another checksum is contradictory source
 *   data (`conflict`), because a source must not state two contents under one version;
 * - same updatedAt: the greater checksum, then the greater source event id (plain string order).
 */
import type { Freshness } from '../contact.events';

export type Comparison = 'fresher' | 'same' | 'older' | 'conflict';

export function compareFreshness(incoming: Freshness, stored: Freshness): Comparison {
  if (incoming.sourceVersion !== undefined && stored.sourceVersion !== undefined) {
    if (incoming.sourceVersion !== stored.sourceVersion) return incoming.sourceVersion > stored.sourceVersion ? 'fresher' : 'older';
    return incoming.checksum === stored.checksum ? 'same' : 'conflict';
  }
  if (incoming.sourceUpdatedAt !== undefined && stored.sourceUpdatedAt !== undefined) {
    const byTime = Date.parse(incoming.sourceUpdatedAt) - Date.parse(stored.sourceUpdatedAt);
    if (byTime !== 0) return byTime > 0 ? 'fresher' : 'older';
    const byChecksum = order(incoming.checksum, stored.checksum);
    if (byChecksum !== 'same') return byChecksum;
    return order(incoming.sourceEventId ?? '', stored.sourceEventId ?? '');
  }
  // Nothing to order by: the later arrival wins, unless it states the same content.
  return incoming.checksum === stored.checksum ? 'same' : 'fresher';
}

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
