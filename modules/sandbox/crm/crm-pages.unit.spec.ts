import { locatePage, pageOrder, type CrmPage } from './crm-pages';

/** The blocks (first index of each page) an export walks through, cursor after cursor, and how it ends. */
function walk(limit: number, size: number, seed: number, outOfOrder: boolean): number[] {
  const starts: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = locatePage(cursor, limit, size, seed, outOfOrder) as CrmPage;
    expect(page.number).toBe(starts.length + 1);
    starts.push(page.from);
    const next = page.next(page.to ?? Math.min(size, page.from + limit));
    if (next === null) return starts;
    cursor = next;
  }
}

describe('the order of an out-of-order export (pageOrder)', () => {
  it.each([1, 2, 3, 7, 12, 100])('hands out each of %i blocks once, never block k and then block k+1', (count) => {
    for (const seed of [1, 7, 42, 2 ** 31 - 1]) {
      const order = pageOrder(seed, count);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
      for (let i = 1; i < count; i++) expect(order[i]).not.toBe(order[i - 1] + 1);
    }
  });

  it('is the same for the same seed and another for another seed', () => {
    const first = [...pageOrder(7, 40)];
    pageOrder(8, 40);
    expect(pageOrder(7, 40)).toEqual(first);
    expect(pageOrder(8, 40)).not.toEqual(first);
  });
});

describe('locatePage', () => {
  it('walks an out-of-order export through every block once and ends it with a null cursor', () => {
    const starts = walk(100, 1050, 3, true);
    expect([...starts].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i * 100));
    expect(starts).not.toEqual([...starts].sort((a, b) => a - b));
  });

  it('walks an in-order export by offsets, as before', () => {
    expect(walk(100, 1050, 3, false)).toEqual(Array.from({ length: 11 }, (_, i) => i * 100));
  });

  it('goes on with an export as it began, whatever the setting says now', () => {
    const inOrder = locatePage('o300', 100, 1050, 3, true) as CrmPage;
    expect(inOrder).toMatchObject({ number: 4, from: 300 });
    expect(inOrder.to).toBeUndefined();
    expect(inOrder.next(400)).toBe('o400');
    const outOfOrder = locatePage('p4.100', 100, 1050, 3, false) as CrmPage;
    expect(outOfOrder).toMatchObject({ number: 5, from: pageOrder(3, 11)[4] * 100 });
    expect(outOfOrder.next(0)).toBe('p5.100');
  });

  it('refuses a cursor of another page size, past the last page, or of no known shape', () => {
    expect(locatePage('p4.100', 50, 1050, 3, true)).toBe('this cursor pages by 100: ask with limit=100');
    expect(locatePage('p11.100', 100, 1050, 3, true)).toBe('unknown cursor');
    expect(locatePage('x9', 100, 1050, 3, true)).toBe('unknown cursor');
  });

  it('answers an empty CRM with one empty last page', () => {
    const page = locatePage(undefined, 100, 0, 3, true) as CrmPage;
    expect(page).toMatchObject({ number: 1, from: 0, to: 0 });
    expect(page.next(0)).toBeNull();
  });
});
