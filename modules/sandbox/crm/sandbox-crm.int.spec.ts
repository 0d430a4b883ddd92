/**
 * The sandbox CRM over HTTP, with its two settings of a live CRM: edits between the pages of an export
 * (mutatePerPage, deletesPerPage) and pages handed out in a seeded non-sequential order
 * (outOfOrderPages). Both stay reproducible from the seed: the same requests see the same data.
 */
import { createSandbox, type Sandbox } from '../create-sandbox';
import type { CrmContact } from './crm-data';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function crm(seed: number, size: number) {
  const sandbox = await createSandbox({ crm: { seed, size } });
  sandboxes.push(sandbox);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const page = async (cursor: string | null, limit: number) => {
    const { status, body } = await call('GET', `/crm/contacts?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(status).toBe(200);
    return body as unknown as { contacts: CrmContact[]; nextCursor: string | null };
  };
  /** A whole export, page by page as a client follows the cursors. */
  const exportAll = async (limit: number) => {
    const pages: CrmContact[][] = [];
    let cursor: string | null = null;
    do {
      const next = await page(cursor, limit);
      pages.push(next.contacts);
      cursor = next.nextCursor;
    } while (cursor !== null);
    return pages;
  };
  const behave = async (settings: Record<string, unknown>) =>
    expect((await call('POST', '/crm/_control/behaviour', settings)).status).toBe(200);
  return { call, page, exportAll, behave };
}

const index = (c: CrmContact) => Number(c.sourceId.slice(1));
/** Edits made so far: each moves one contact a version on. */
const editsIn = (contacts: CrmContact[]) => contacts.reduce((sum, c) => sum + c.version - 1, 0);

describe('the sandbox CRM', () => {
  describe('with mutatePerPage and deletesPerPage', () => {
    it('edits that many seeded contacts before serving each page, none before a page a fault failed', async () => {
      const c = await crm(5, 10);
      await c.behave({ mutatePerPage: 3 });
      expect((await c.call('POST', '/crm/_control/faults', { page: 1, kind: 'error_500', times: 1 })).status).toBe(201);
      expect((await c.call('GET', '/crm/contacts?limit=10')).status).toBe(500);
      const [only] = await c.exportAll(10);
      expect(editsIn(only)).toBe(3);
      expect(editsIn((await c.exportAll(10))[0])).toBe(6);
    });

    it('edits and deletes over a whole export as many contacts as pages served times the settings', async () => {
      const c = await crm(5, 1000);
      await c.behave({ mutatePerPage: 7, deletesPerPage: 2 });
      expect((await c.exportAll(100)).length).toBe(10);
      await c.behave({});
      const now = (await c.exportAll(1000)).flat();
      expect(editsIn(now)).toBe(10 * (7 + 2));
      expect(now.filter((x) => x.deleted).length).toBeGreaterThan(0);
      expect(now.every((x) => x.deleted === true || x.fields !== undefined)).toBe(true);
    });

    it('serves the same pages to the same requests from the same seed, and others from another seed', async () => {
      const settings = { mutatePerPage: 11, deletesPerPage: 1, outOfOrderPages: true };
      const [a, b, other] = await Promise.all([crm(9, 2000), crm(9, 2000), crm(10, 2000)]);
      await Promise.all([a, b, other].map((c) => c.behave(settings)));
      const first = await a.exportAll(150);
      expect(await b.exportAll(150)).toEqual(first);
      expect(await other.exportAll(150)).not.toEqual(first);
    });
  });

  describe('with outOfOrderPages', () => {
    it('serves every contact exactly once per export, its blocks not in order, and the last page says there is no next', async () => {
      const c = await crm(3, 1050);
      await c.behave({ outOfOrderPages: true });
      const pages = await c.exportAll(100);
      expect(pages.length).toBe(11);
      const ids = pages.flat().map(index);
      expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 1050 }, (_, i) => i));
      // No page's block follows the one before it, so fresher contacts come before older ones.
      for (let p = 1; p < pages.length; p++) expect(index(pages[p][0])).not.toBe(index(pages[p - 1][0]) + 100);
      expect(pages.slice(1).some((page, p) => index(page[0]) < index(pages[p][0]))).toBe(true);
      const { body } = await c.call('GET', '/crm/_control/requests');
      expect(body.byPage).toEqual(Object.fromEntries(Array.from({ length: 11 }, (_, p) => [String(p + 1), 1])));
    });

    it('still serves every contact exactly once while edits happen between its pages', async () => {
      const c = await crm(4, 1234);
      await c.behave({ outOfOrderPages: true, mutatePerPage: 50, deletesPerPage: 5 });
      const ids = (await c.exportAll(100)).flat().map(index);
      expect(new Set(ids).size).toBe(1234);
      expect(ids.length).toBe(1234);
    });

    it('goes on with an export begun in order in order, and refuses its cursor with another page size', async () => {
      const c = await crm(3, 300);
      const first = await c.page(null, 100);
      await c.behave({ outOfOrderPages: true });
      const second = await c.page(first.nextCursor, 100);
      expect(second.contacts.map(index)).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
      const outOfOrder = await c.page(null, 100);
      expect((await c.call('GET', `/crm/contacts?limit=50&cursor=${outOfOrder.nextCursor}`)).body).toEqual({
        error: 'this cursor pages by 100: ask with limit=100',
      });
    });

    it('keeps in each page only the contacts of its block changed since `since`', async () => {
      const c = await crm(6, 500);
      const { body } = await c.call('POST', '/crm/_control/mutate', { count: 40 });
      await c.behave({ outOfOrderPages: true });
      const pulled: CrmContact[] = [];
      let cursor: string | null = null;
      do {
        const { body: next } = await c.call(
          'GET',
          `/crm/contacts?limit=100&since=2026-01-03T00:00:00Z${cursor ? `&cursor=${cursor}` : ''}`,
        );
        pulled.push(...(next.contacts as CrmContact[]));
        cursor = next.nextCursor as string | null;
      } while (cursor !== null);
      expect(new Set(pulled.map((x) => x.sourceId))).toEqual(new Set(body.touched as string[]));
      expect(pulled.length).toBe(new Set(body.touched as string[]).size);
    });
  });

  it('refuses a mutation it cannot take as asked (not a count, a fraction, too many), editing nothing', async () => {
    const c = await crm(1, 10);
    const before = await c.page(null, 10);
    for (const [body, error] of [
      [{ count: 'x' }, 'count must be an integer in 0..100000'],
      [{ count: 1.5 }, 'count must be an integer in 0..100000'],
      [{ count: -5 }, 'count must be an integer in 0..100000'],
      [{ count: 100_000_000 }, 'count must be an integer in 0..100000'],
      [{ count: 1, deletes: '2' }, 'deletes must be an integer in 0..100000'],
    ] as const)
      expect(await c.call('POST', '/crm/_control/mutate', body)).toEqual({ status: 400, body: { error } });
    expect(await c.page(null, 10)).toEqual(before);
    expect((await c.call('POST', '/crm/_control/mutate', { count: 2, deletes: 1 })).body.touched).toHaveLength(3);
  });

  it('refuses a reset to a seed or size it cannot take, keeping the contacts it had', async () => {
    const c = await crm(1, 10);
    const before = await c.page(null, 10);
    for (const [body, error] of [
      [{ size: 'x' }, 'size must be an integer in 0..10000000'],
      [{ size: -1 }, 'size must be an integer in 0..10000000'],
      [{ size: 2.5 }, 'size must be an integer in 0..10000000'],
      [{ seed: 'abc' }, 'seed must be an integer'],
      [{ seed: 1.5 }, 'seed must be an integer'],
    ] as const)
      expect(await c.call('POST', '/crm/_control/reset', body)).toEqual({ status: 400, body: { error } });
    expect(await c.page(null, 10)).toEqual(before);
    expect((await c.call('POST', '/crm/_control/reset', { seed: 2, size: 3 })).body).toEqual({ seed: 2, size: 3 });
    expect((await c.page(null, 10)).contacts).toHaveLength(3);
  });

  it('refuses a behaviour it does not know how to take, keeping the one it had', async () => {
    const c = await crm(1, 10);
    await c.behave({ mutatePerPage: 2 });
    expect(await c.call('POST', '/crm/_control/behaviour', { mutatePerPage: 'many' })).toEqual({
      status: 400,
      body: { error: 'mutatePerPage must be an integer in 0..10000' },
    });
    expect(editsIn((await c.page(null, 10)).contacts)).toBe(2);
  });
});
