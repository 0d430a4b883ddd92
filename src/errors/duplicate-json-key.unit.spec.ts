import { firstDuplicateKey } from './duplicate-json-key';

describe('firstDuplicateKey', () => {
  it('finds nothing in JSON whose objects each name their keys once', () => {
    for (const text of [
      '{}',
      '[]',
      '"a"',
      '12.5e3',
      'null',
      '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
      // Names that only look alike, and strings that look like structure.
      '{"a":"\\"a\\":1,","A":1,"a ":2,"\\\\":3,"\\\\\\"":4}',
      '{"k":"{\\"k\\":1}","v":["k","k"]}',
      ' { "x" : [ 1 , { "x" : 2 } ] , "y" : true } ',
    ]) {
      expect({ text, found: firstDuplicateKey(text) }).toEqual({ text, found: undefined });
    }
  });

  it('names the repeated key and the path of its value, through objects and array indexes', () => {
    expect(firstDuplicateKey('{"records":[1],"records":[2]}')).toEqual({ key: 'records', path: 'records' });
    expect(firstDuplicateKey('{"records":[{"a":1},{"fields":{"e":1, "f":[], "e":2}}]}')).toEqual({
      key: 'e',
      path: 'records.1.fields.e',
    });
    expect(firstDuplicateKey('[[],[{}],[{"x":1},{"y":{"z":1,"z":1}}]]')).toEqual({ key: 'z', path: '2.1.y.z' });
  });

  it('compares names as decoded, so an escaped spelling is the same name', () => {
    expect(firstDuplicateKey('{"name":1,"n\\u0061me":2}')).toEqual({ key: 'name', path: 'name' });
    expect(firstDuplicateKey('{"a\\"b":1,"a\\u0022b":2}')).toEqual({ key: 'a"b', path: 'a"b' });
  });

  it('agrees with a slow reference parser on whether a generated document repeats a key', () => {
    // A document built with keys drawn from a tiny alphabet: some objects repeat one, most do not.
    let seed = 7;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const build = (depth: number): string => {
      if (depth === 0 || random(3) === 0) return ['1', '"s"', 'null', '"\\"{"'][random(4)];
      if (random(2) === 0) return `[${Array.from({ length: random(4) }, () => build(depth - 1)).join(',')}]`;
      const members = Array.from({ length: random(4) }, () => `"${'abc'[random(3)]}":${build(depth - 1)}`);
      return `{${members.join(',')}}`;
    };
    for (let i = 0; i < 300; i++) {
      const text = build(4);
      expect({ text, found: firstDuplicateKey(text) !== undefined }).toEqual({ text, found: hasRepeat(text) });
    }
  });
});

/** An independent (slow, recursive) reference: parses the text itself and checks each object's names. */
function hasRepeat(text: string): boolean {
  let i = 0;
  let repeat = false;
  const ws = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): void => {
    ws();
    if (text[i] === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      while (text[i] !== '}') {
        ws();
        const key = string();
        if (seen.has(key)) repeat = true;
        seen.add(key);
        ws();
        i++; // ':'
        value();
        ws();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (text[i] === '[') {
      i++;
      ws();
      while (text[i] !== ']') {
        value();
        ws();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (text[i] === '"') string();
    else while (i < text.length && !/[,\]}\s]/.test(text[i])) i++;
  };
  value();
  return repeat;
}
