/**
 * Where a page of the sandbox CRM's export starts, and the cursor of the page after it (our own fake:
 * cursors are opaque to clients, and their shapes are ours). Two kinds of export:
 * - in order (`o<offset>`): contacts in index order from the offset, `limit` of them kept;
 * - out of order (`p<step>.<limit>`): the contacts cut into blocks of `limit`, handed out in a seeded
 *   order in which no block is followed by the next one, so fresher contacts (a later index has a later
 *   `updatedAt`) arrive before older ones across pages, and each block still comes exactly once.
 * The cursor carries its kind, so an export goes on as it began whatever the setting says meanwhile.
 */
import { seededRandom } from '../faults/seeded-random';

export interface CrmPage {
  /** The export's n-th page, from 1: faults and request counts go by this number. */
  number: number;
  /** The first contact index looked at. */
  from: number;
  /** Out of order: the block's end (exclusive). Undefined in order: look on until `limit` are kept. */
  to?: number;
  /** The next page's cursor, given the index the page stopped before; null after the last page. */
  next(end: number): string | null;
}

export function locatePage(cursor: string | undefined, limit: number, size: number, seed: number, outOfOrder: boolean): CrmPage | string {
  if (cursor === undefined || cursor === '') return outOfOrder ? blockPage(0, limit, size, seed) : offsetPage(0, limit, size);
  const offset = /^o(\d{1,9})$/.exec(cursor);
  if (offset) return offsetPage(Number(offset[1]), limit, size);
  const step = /^p(\d{1,9})\.(\d{1,4})$/.exec(cursor);
  if (!step) return 'unknown cursor';
  // A block's bounds depend on the page size, so an export cut into blocks must keep its size.
  if (Number(step[2]) !== limit) return `this cursor pages by ${step[2]}: ask with limit=${step[2]}`;
  if (Number(step[1]) >= pageCount(limit, size)) return 'unknown cursor';
  return blockPage(Number(step[1]), limit, size, seed);
}

function offsetPage(offset: number, limit: number, size: number): CrmPage {
  return { number: Math.floor(offset / limit) + 1, from: offset, next: (end) => (end < size ? `o${end}` : null) };
}

function blockPage(step: number, limit: number, size: number, seed: number): CrmPage {
  const count = pageCount(limit, size);
  const from = pageOrder(seed, count)[step] * limit;
  return {
    number: step + 1,
    from,
    to: Math.min(size, from + limit),
    next: () => (step + 1 < count ? `p${step + 1}.${limit}` : null),
  };
}

/** An empty CRM still answers one (empty) page. */
const pageCount = (limit: number, size: number) => Math.max(1, Math.ceil(size / limit));

let memo: { seed: number; count: number; order: number[] } | undefined;

/**
 * The blocks in the order an out-of-order export hands them out: a permutation of 0..count-1 drawn
 * from the seed (a killed export and its resume see the same order), in which no block k is followed by
 * block k+1. Shuffles are drawn until one has no such pair (about one in e does); reversed order, which
 * has none, stands in if a thousand draws fail. Kept for the last (seed, count): asked once per page.
 */
export function pageOrder(seed: number, count: number): number[] {
  if (memo?.seed === seed && memo.count === count) return memo.order;
  const random = seededRandom(seed ^ 0x0bad5eed);
  let order: number[] | undefined;
  for (let draw = 0; draw < 1000 && !order; draw++) {
    const shuffled = shuffle(count, random);
    if (shuffled.every((block, i) => i === 0 || block !== shuffled[i - 1] + 1)) order = shuffled;
  }
  memo = { seed, count, order: order ?? Array.from({ length: count }, (_, i) => count - 1 - i) };
  return memo.order;
}

function shuffle(count: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
