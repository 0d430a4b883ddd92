import { EVENT_TYPE, STREAM_NAME, type ResolvedEvent } from '@eventstore/db-client';
import { eventMatcher, restrictsEvents, serverFilterOf } from './esdb.filter';

const resolved = (streamId: string, type: string) => ({ event: { streamId, type } }) as ResolvedEvent;

describe('serverFilterOf', () => {
  it('narrows by the union of the alternatives’ categories when each names some', () => {
    const filter = { anyOf: [{ streamCategories: ['order'] }, { streamCategories: ['import'], eventTypes: ['ImportRunStarted'] }] };
    expect(serverFilterOf(filter)).toEqual({ filterOn: STREAM_NAME, regex: '^(?:order|import)(?:-|$)' });
  });

  it('narrows by the union of the alternatives’ types when each names some but not each a category', () => {
    const filter = { anyOf: [{ eventTypes: ['A'] }, { streamCategories: ['order'], eventTypes: ['B', 'A'] }] };
    expect(serverFilterOf(filter)).toEqual({ filterOn: EVENT_TYPE, regex: '^(?:A|B)$' });
  });

  it('keeps only "not a $ stream" when an alternative names no category and another no type', () => {
    expect(serverFilterOf({ anyOf: [{ streamCategories: ['order'] }, { eventTypes: ['A'] }] })).toEqual({
      filterOn: STREAM_NAME,
      regex: '^[^$]',
    });
  });

  it('narrows by the filter’s own categories before its alternatives', () => {
    expect(serverFilterOf({ streamCategories: ['order'], anyOf: [{ eventTypes: ['A'] }] }).regex).toBe('^(?:order)(?:-|$)');
  });
});

describe('eventMatcher', () => {
  it('passes an event one alternative passes, ANDed with the filter’s own fields, and never a $ event', () => {
    const matches = eventMatcher({
      eventTypes: ['A', 'B'],
      anyOf: [{ streamCategories: ['order'] }, { streamCategories: ['import'], eventTypes: ['A'] }],
    });
    expect(matches(resolved('order-1', 'B'))).toBe(true);
    expect(matches(resolved('import-1', 'A'))).toBe(true);
    expect(matches(resolved('import-1', 'B'))).toBe(false);
    expect(matches(resolved('order-1', 'C'))).toBe(false);
    expect(matches(resolved('contact-1', 'A'))).toBe(false);
    expect(eventMatcher({ anyOf: [{ eventTypes: ['$metadata'] }] })(resolved('$$order-1', '$metadata'))).toBe(false);
  });
});

describe('restrictsEvents', () => {
  it('says whether any field or alternative restricts', () => {
    expect(restrictsEvents(undefined)).toBe(false);
    expect(restrictsEvents({ streamCategories: [], anyOf: [] })).toBe(false);
    expect(restrictsEvents({ anyOf: [{ eventTypes: ['A'] }] })).toBe(true);
  });
});
