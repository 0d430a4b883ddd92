import type { RecordedEvent } from '../event-store/event-store.port';
import { matchesFilter, unionFilter } from './event-filter';

const event = (stream: string, type: string) => ({ stream, type }) as RecordedEvent;

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

  it('drops a dimension that one member does not restrict', () => {
    expect(unionFilter([{ eventTypes: ['A'] }, { streamCategories: ['order'], eventTypes: ['B'] }])).toEqual({ eventTypes: ['A', 'B'] });
    expect(unionFilter([{ eventTypes: ['A'] }, {}])).toEqual({});
  });
});

describe('matchesFilter', () => {
  it('requires both the category and the type when both are given', () => {
    const filter = { streamCategories: ['order'], eventTypes: ['ChargeSucceeded'] };
    expect(matchesFilter(filter, event('order-1', 'ChargeSucceeded'))).toBe(true);
    expect(matchesFilter(filter, event('order-1', 'ChargeFailed'))).toBe(false);
    expect(matchesFilter(filter, event('orders-1', 'ChargeSucceeded'))).toBe(false);
  });
});
