import fc from 'fast-check';
import { configure } from 'safe-stable-stringify';
import { canonicalJson, deepCanonicalJson } from './canonical-json';

/** The text every stored hash was taken of: safe-stable-stringify as canonicalJson has always configured it. */
const stringifySorted = configure({ deterministic: true, circularValue: TypeError });
const reference = (value: unknown) => stringifySorted(value) ?? 'null';

/** A value with undefined members and items, as callers build them (optional fields of a contact record). */
const withUndefined = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const nested = (depth: number, wrap: (inner: unknown) => unknown, leaf: unknown) => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};

const DEEP = 5000;

describe('canonicalJson', () => {
  describe('the stack-free writer', () => {
    it('writes the same text as safe-stable-stringify for any JSON value', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          expect(deepCanonicalJson(value)).toBe(reference(value));
        }),
        { numRuns: 2000 },
      );
    });

    it('writes the same text for values with undefined members and items', () => {
      fc.assert(
        fc.property(withUndefined, (value) => {
          expect(deepCanonicalJson(value)).toBe(reference(value));
        }),
        { numRuns: 1000 },
      );
    });

    it('follows toJSON, non-finite numbers, bigints, functions, symbols and typed arrays as safe-stable-stringify does', () => {
      const typed = Object.assign(new Float64Array([1.5, NaN]), { b: 1, a: undefined });
      const value = {
        at: new Date(Date.UTC(2026, 11, 2)),
        custom: { toJSON: (key: string) => ({ key, z: 1, a: [2] }) },
        numbers: [NaN, Infinity, -0, 1e21, 10n],
        gone: () => 1,
        symbol: Symbol('s'),
        items: [() => 1, Symbol('t'), undefined],
        typed,
        empty: [new Uint8Array(), {}, []],
      };
      expect(deepCanonicalJson(value)).toBe(reference(value));
      expect(deepCanonicalJson(undefined)).toBe('null');
      expect(deepCanonicalJson('top')).toBe(reference('top'));
    });

    it('refuses a cycle as safe-stable-stringify does', () => {
      const cyclic: Record<string, unknown> = { a: [1] };
      (cyclic.a as unknown[]).push(cyclic);
      expect(() => deepCanonicalJson(cyclic)).toThrow(TypeError);
      const shared = { x: 1 };
      expect(deepCanonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
    });
  });

  describe('when a value is nested deeper than the call stack reaches', () => {
    it(`writes ${DEEP} levels of arrays`, () => {
      const value = nested(DEEP, (inner) => [inner], 1);
      expect(() => reference(value)).toThrow(RangeError);
      expect(canonicalJson(value)).toBe(`${'['.repeat(DEEP)}1${']'.repeat(DEEP)}`);
    });

    it(`writes ${DEEP} levels of objects, keys sorted at every level`, () => {
      const value = nested(DEEP, (inner) => ({ z: undefined, b: inner, a: [true] }), null);
      expect(() => reference(value)).toThrow(RangeError);
      expect(canonicalJson(value)).toBe(`${'{"a":[true],"b":'.repeat(DEEP)}null${'}'.repeat(DEEP)}`);
    });
  });
});
