import { repeatedKeys } from './page-json';

describe('repeatedKeys of a CRM page', () => {
  it('finds nothing in a page that repeats no name', () => {
    expect(repeatedKeys('{"contacts":[{"sourceId":"a","fields":{"a":1}},{"sourceId":"a","fields":{"a":1}}],"nextCursor":null}')).toEqual({
      records: new Map(),
    });
  });

  it('names every record that repeats a name, by its place in the page, across strings holding brackets and quotes', () => {
    const text =
      '{"nextCursor":"[x]","contacts":[ {"s":"a\\"],{","s":1} , null,{"f":{"b":[1,{"c":2}],"b":3}},"x",' +
      '{"ok":"}"} ,{"k":{"\\u0061":1,"a":2}}]}';
    expect(JSON.parse(text)).toBeTruthy();
    expect(repeatedKeys(text)).toEqual({
      records: new Map([
        [0, 'record 1 of the page names "s" twice in one object (at s)'],
        [2, 'record 3 of the page names "b" twice in one object (at f.b)'],
        [5, 'record 6 of the page names "a" twice in one object (at k.a)'],
      ]),
    });
  });

  it('names a repeated name of the envelope, even after a record that repeats one', () => {
    expect(repeatedKeys('{"contacts":[{"a":1,"a":2}],"nextCursor":"p2","nextCursor":null}')).toEqual({
      envelope: 'nextCursor',
      records: new Map(),
    });
    expect(repeatedKeys('{"contacts":[],"contacts":[{"a":1}],"nextCursor":null}').envelope).toBe('contacts');
  });
});
