import fc from 'fast-check';
import type { EventFilter, RecordedEvent } from '../event-store/event-store.port';
import { matchesFilter, unionFilter } from './event-filter';

const event = (stream: string, type: string) => ({ stream, type }) as RecordedEvent;

const LIFECYCLE = ['ImportRunStarted', 'ImportRunNeedsReview'];

describe('unionFilter', () => {
  it('lets through everything each member wants', () => {
    const members = [
      { streamCategories: ['order'] },
      { streamCategories: ['order'], eventTypes: ['ChargeSucceeded'] },
      { streamCategories: ['contact'] },
    ];
    const union = unionFilter(members);
    expect(union).toEqual({ streamCategories: ['contact', 'order'] });
    for (const e of [event('order-1', 'ChargeRequested'), event('contact-crm.1', 'ContactImported')])
      expect(matchesFilter(union, e)).toBe(true);
  });

  it('keeps each member as an alternative when one restricts a dimension another does not', () => {
    expect(unionFilter([{ eventTypes: ['A'] }, { streamCategories: ['order'], eventTypes: ['B'] }])).toEqual({
      anyOf: [{ eventTypes: ['A'] }, { streamCategories: ['order'], eventTypes: ['B'] }],
    });
    expect(unionFilter([{ eventTypes: ['A'] }, {}])).toEqual({});
    expect(unionFilter([{ eventTypes: ['A'] }, { anyOf: [{ streamCategories: ['x'] }, {}] }])).toEqual({});
  });

  describe('for the payments lane (every order event, and the lifecycle of orders and imports)', () => {
    const lane = [
      { streamCategories: ['order'] },
      { streamCategories: ['order'], eventTypes: ['ChargeRequested'] },
      { streamCategories: ['order', 'import'], eventTypes: [...LIFECYCLE, 'ChargeNeedsReview'] },
      { streamCategories: ['order', 'import'], eventTypes: ['ImportRunCompleted'] },
    ];
    const union = unionFilter(lane);

    it('merges the members that agree on their categories and drops those another covers', () => {
      expect(union).toEqual({
        anyOf: [
          { streamCategories: ['import', 'order'], eventTypes: ['ChargeNeedsReview', 'ImportRunCompleted', ...LIFECYCLE].sort() },
          { streamCategories: ['order'] },
        ],
      });
    });

    it('passes an order event of any type and the import lifecycle, but no processed import record', () => {
      expect(matchesFilter(union, event('order-1', 'SomeOrderEventNobodyListed'))).toBe(true);
      expect(matchesFilter(union, event('import-r1', 'ImportRunStarted'))).toBe(true);
      expect(matchesFilter(union, event('import-r1', 'ImportRecordProcessed'))).toBe(false);
      expect(matchesFilter(union, event('contact-crm.1', 'ImportRunStarted'))).toBe(false);
    });

    it('gives the same filter whatever order the members come in, and again when a member joins that it covers', () => {
      expect(unionFilter([...lane].reverse())).toEqual(union);
      expect(unionFilter([union, { streamCategories: ['import'], eventTypes: ['ImportRunStarted'] }])).toEqual(union);
    });
  });

  it('ANDs a member’s own fields with its alternatives, and drops an alternative that then passes nothing', () => {
    const member: EventFilter = { eventTypes: ['X'], anyOf: [{ streamCategories: ['a'] }, { streamCategories: ['b'], eventTypes: ['Y'] }] };
    expect(unionFilter([member])).toEqual({ streamCategories: ['a'], eventTypes: ['X'] });
  });

  /** Every event of a small vocabulary, plus a category and a type no filter names. */
  const CATEGORIES = ['a', 'b', 'c'];
  const TYPES = ['X', 'Y', 'Z'];
  const universe = [...CATEGORIES, 'other'].flatMap((c) => [...TYPES, 'Other'].map((t) => event(`${c}-1`, t)));
  const values = (from: string[]) => fc.option(fc.subarray(from), { nil: undefined });
  const alternative = fc.record({ streamCategories: values(CATEGORIES), eventTypes: values(TYPES) }, { requiredKeys: [] });
  const filter: fc.Arbitrary<EventFilter> = fc.record(
    { streamCategories: values(CATEGORIES), eventTypes: values(TYPES), anyOf: fc.array(alternative, { maxLength: 4 }) },
    { requiredKeys: [] },
  );

  it('passes exactly the events some member passes (every member passing nothing gives {})', () => {
    fc.assert(
      fc.property(fc.array(filter, { maxLength: 5 }), (filters) => {
        const union = unionFilter(filters);
        const wanted = universe.filter((e) => filters.some((f) => matchesFilter(f, e)));
        if (!wanted.length) expect(union).toEqual({});
        else for (const e of universe) expect(matchesFilter(union, e)).toBe(wanted.includes(e));
      }),
      { numRuns: 1500 },
    );
  });

  it('is canonical: the union of a union is itself, and the members’ order does not matter', () => {
    fc.assert(
      fc.property(
        fc
          .array(filter, { maxLength: 5 })
          .chain((filters) => fc.tuple(fc.constant(filters), fc.shuffledSubarray(filters, { minLength: filters.length }))),
        ([filters, shuffled]) => {
          const union = unionFilter(filters);
          expect(unionFilter([union])).toEqual(union);
          expect(unionFilter(shuffled)).toEqual(union);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('matchesFilter', () => {
  it('requires both the category and the type when both are given', () => {
    const filter = { streamCategories: ['order'], eventTypes: ['ChargeSucceeded'] };
    expect(matchesFilter(filter, event('order-1', 'ChargeSucceeded'))).toBe(true);
    expect(matchesFilter(filter, event('order-1', 'ChargeFailed'))).toBe(false);
    expect(matchesFilter(filter, event('orders-1', 'ChargeSucceeded'))).toBe(false);
  });

  it('passes an event that matches any alternative, each alternative ANDing its own fields', () => {
    const filter = { anyOf: [{ streamCategories: ['order'] }, { streamCategories: ['import'], eventTypes: ['ImportRunStarted'] }] };
    expect(matchesFilter(filter, event('order-1', 'AnyType'))).toBe(true);
    expect(matchesFilter(filter, event('import-r', 'ImportRunStarted'))).toBe(true);
    expect(matchesFilter(filter, event('import-r', 'ImportRecordProcessed'))).toBe(false);
    expect(matchesFilter(filter, event('contact-c', 'ImportRunStarted'))).toBe(false);
  });

  it('ANDs the top-level fields with the alternatives', () => {
    const filter = { eventTypes: ['X'], anyOf: [{ streamCategories: ['a'] }, { streamCategories: ['b'] }] };
    expect(matchesFilter(filter, event('a-1', 'X'))).toBe(true);
    expect(matchesFilter(filter, event('b-1', 'X'))).toBe(true);
    expect(matchesFilter(filter, event('a-1', 'Y'))).toBe(false);
    expect(matchesFilter(filter, event('c-1', 'X'))).toBe(false);
  });

  it('lets every event through with an empty anyOf or an alternative that restricts nothing', () => {
    expect(matchesFilter({ anyOf: [] }, event('a-1', 'X'))).toBe(true);
    expect(matchesFilter({ anyOf: [{ streamCategories: ['b'] }, {}] }, event('a-1', 'X'))).toBe(true);
  });
});
