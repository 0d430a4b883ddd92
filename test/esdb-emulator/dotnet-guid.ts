/**
 * `Guid.Parse(string)` as the server runs it: `Uuid.FromDto` hands a proposed message's string id to `Guid.Parse`
 * (`Services/Transport/Grpc/Uuid.cs`, `Uuid(string)`, kurrent-io/KurrentDB v24.10.5), on .NET 8 (`net8.0`,
 * `src/Directory.Build.props`). Ported from dotnet/runtime `System.Private.CoreLib/src/System/Guid.cs`
 * (`TryParseGuid`, `TryParseExactD/N/B/P/X`, `TryParseHex`, `EatAllWhitespace`, `IsHexPrefix`; the same dispatch
 * and failure kinds in the .NET 8 sources and since), with its messages from `Resources/Strings.resx`:
 *
 * - surrounding white space is trimmed (`char.IsWhiteSpace`); under 32 characters is "Unrecognized";
 * - `(` starts P, `{` starts B when `[9]` is a dash and X otherwise, anything else is D when `[8]` is a dash, else N;
 * - hex digits in either case; D (also inside B and P) keeps a compatibility path where a group may start with
 *   `+` and/or `0x` within its own width; X allows white space anywhere and short or zero-padded components;
 * - an overflowing X component is a FormatException too (`Guid.Parse` throws `AllButOverflow`), "Unrecognized".
 *
 * The result is the Guid's `ToString()` (D, lower case): the id the server stores and reads back.
 */
export type GuidParse = { guid: string } | { error: string };

const MESSAGES = {
  unrecognized: 'Unrecognized Guid format.',
  invLen: 'Guid should contain 32 digits with 4 dashes (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).',
  dashes: 'Dashes are in the wrong position for GUID parsing.',
  invalidChar: 'Guid string should only contain hexadecimal characters.',
  brace: 'Expected {0xdddddddd, etc}.',
  hexPrefix: 'Expected 0x prefix.',
  comma: "Could not find a comma, or the length between the previous token and the comma was zero (i.e., '0x,'etc.).",
  braceAfterLastNumber: "Could not find a brace, or the length between the previous token and the brace was zero (i.e., '0x,'etc.).",
  endBrace: 'Could not find the ending brace.',
  extraJunkAtEnd: 'Additional non-parsable characters are at the end of the string.',
} as const;

const fail = (kind: keyof typeof MESSAGES): GuidParse => ({ error: MESSAGES[kind] });

/** `char.IsWhiteSpace`: the Unicode White_Space property (not JavaScript's `\s`, which adds U+FEFF and lacks U+0085). */
const WHITE_SPACE = /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const isWhiteSpace = (c: string) => WHITE_SPACE.test(c);

function trim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWhiteSpace(s[start])) start++;
  while (end > start && isWhiteSpace(s[end - 1])) end--;
  return s.slice(start, end);
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
const HEX_D = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_N = /^[0-9a-f]{32}$/i;

export function parseGuid(input: string): GuidParse {
  const s = trim(input);
  if (s.length < 32) return fail('unrecognized');
  if (s[0] === '(') return parseWrapped(s, ')');
  if (s[0] === '{') return s[9] === '-' ? parseWrapped(s, '}') : parseX(s);
  return s[8] === '-' ? parseD(s) : parseN(s);
}

/** B `{…}` and P `(…)`: exactly 38 characters around a D. */
function parseWrapped(s: string, close: string): GuidParse {
  return s.length !== 38 || s[37] !== close ? fail('invLen') : parseD(s.slice(1, 37));
}

function parseN(s: string): GuidParse {
  if (s.length !== 32) return fail('invLen');
  if (!HEX_N.test(s)) return fail('invalidChar');
  const h = s.toLowerCase();
  return { guid: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
}

function parseD(s: string): GuidParse {
  if (s.length !== 36 || s[8] !== '-' || s[13] !== '-' || s[18] !== '-' || s[23] !== '-') {
    return fail(s.length !== 36 ? 'invLen' : 'dashes');
  }
  if (HEX_D.test(s)) return { guid: s.toLowerCase() };
  return (/[Xx+]/.test(s) && compatD(s)) || fail('invalidChar');
}

/** `TryCompatParsing`: each group parsed by `TryParseHex` within its width; the last 8 digits strictly hex. */
function compatD(s: string): GuidParse | undefined {
  const groups = [s.slice(0, 8), s.slice(9, 13), s.slice(14, 18), s.slice(19, 23), s.slice(24, 28)].map((g) => parseHex(g));
  if (groups.some((g) => !g.ok) || !/^[0-9a-f]{8}$/i.test(s.slice(28, 36))) return undefined;
  const [a, b, c, de, fg] = groups.map((g) => g.value);
  const short = (v: number) => hex(v & 0xffff, 4);
  return { guid: `${hex(a, 8)}-${short(b)}-${short(c)}-${short(de)}-${short(fg)}${s.slice(28, 36).toLowerCase()}` };
}

/**
 * `TryParseHex`: an optional `+`, an optional `0x`/`0X`, then hex digits accumulated in a wrapping uint; more than 8
 * significant digits is an overflow (reported even when a later character is invalid).
 */
function parseHex(text: string): { ok: boolean; value: number; overflow: boolean } {
  let s = text;
  if (s.length > 0) {
    if (s[0] === '+') s = s.slice(1);
    if (s.length > 1 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) s = s.slice(2);
  }
  let i = 0;
  while (i < s.length && s[i] === '0') i++;
  let value = 0;
  let digits = 0;
  for (; i < s.length; i++) {
    const digit = /^[0-9a-f]$/i.test(s[i]) ? parseInt(s[i], 16) : -1;
    if (digit < 0) return { ok: false, value: 0, overflow: digits > 8 };
    value = (value * 16 + digit) >>> 0;
    digits++;
  }
  return { ok: true, value, overflow: digits > 8 };
}

const isHexPrefix = (s: string, i: number) => i + 1 < s.length && s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X');

/** X: `{0xdddddddd,0xdddd,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}`, white space allowed anywhere. */
function parseX(input: string): GuidParse {
  const s = [...input].filter((c) => !isWhiteSpace(c)).join('');
  if (s.length === 0 || s[0] !== '{') return fail('brace');
  const fields: number[] = [];
  // The three leading components, each `0x…` ended by a comma: the first prefix sits at 1, its digits at 3.
  let numStart = 0;
  let numLen = 0;
  for (let i = 0; i < 3; i++) {
    if (!isHexPrefix(s, numStart + numLen + 1)) return fail('hexPrefix');
    numStart = numStart + numLen + 3;
    numLen = s.slice(numStart).indexOf(',');
    if (numLen <= 0) return fail('comma');
    const parsed = parseHex(s.slice(numStart, numStart + numLen));
    if (!parsed.ok || parsed.overflow) return fail(parsed.overflow ? 'unrecognized' : 'invalidChar');
    fields.push(parsed.value);
  }
  if (s.length <= numStart + numLen + 1 || s[numStart + numLen + 1] !== '{') return fail('brace');
  numLen++;
  const bytes: number[] = [];
  for (let i = 0; i < 8; i++) {
    if (!isHexPrefix(s, numStart + numLen + 1)) return fail('hexPrefix');
    numStart = numStart + numLen + 3;
    numLen = s.slice(numStart).indexOf(i < 7 ? ',' : '}');
    if (numLen <= 0) return fail(i < 7 ? 'comma' : 'braceAfterLastNumber');
    const parsed = parseHex(s.slice(numStart, numStart + numLen));
    // Overflow_UInt32 and Overflow_Byte have no message of their own under `Guid.Parse`: "Unrecognized".
    if (!parsed.ok || parsed.overflow || parsed.value > 0xff) return fail(parsed.ok || parsed.overflow ? 'unrecognized' : 'invalidChar');
    bytes.push(parsed.value);
  }
  if (numStart + numLen + 1 >= s.length || s[numStart + numLen + 1] !== '}') return fail('endBrace');
  if (numStart + numLen + 1 !== s.length - 1) return fail('extraJunkAtEnd');
  const [a, b, c] = fields;
  const tail = bytes.map((byte) => hex(byte, 2)).join('');
  return { guid: `${hex(a, 8)}-${hex(b & 0xffff, 4)}-${hex(c & 0xffff, 4)}-${tail.slice(0, 4)}-${tail.slice(4)}` };
}
