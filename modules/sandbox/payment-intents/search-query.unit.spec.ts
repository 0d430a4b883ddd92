import { parseSearchQuery } from './search-query';

describe('parseSearchQuery', () => {
  it.each([
    ["metadata['order_id']:'481'", { key: 'order_id', value: '481' }],
    ['metadata["order_id"]:"481"', { key: 'order_id', value: '481' }],
    [" metadata['order_id'] : 'ord-9' ", { key: 'order_id', value: 'ord-9' }],
  ])('understands %s', (query, expected) => {
    expect(parseSearchQuery(query)).toEqual(expected);
  });

  it.each([
    ["metadata['order_id']:481"],
    ["metadata['order_id']:'1' OR metadata['order_id']:'2'"],
    ["status:'succeeded'"],
    ["metadata['order_id']:\"1'"],
  ])('refuses %s', (query) => {
    expect(parseSearchQuery(query)).toBeUndefined();
  });
});
