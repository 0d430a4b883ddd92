import { counted } from './counted';

describe('counted', () => {
  it('uses the singular for exactly one and the plural for none and many', () => {
    expect([0, 1, 2, 1000].map((n) => counted(n, 'event'))).toEqual(['0 events', '1 event', '2 events', '1000 events']);
  });

  it('takes an irregular plural', () => {
    expect([1, 3].map((n) => counted(n, 'entry', 'entries'))).toEqual(['1 entry', '3 entries']);
  });
});
