/**
 * `Guid.Parse` as the server runs it (dotnet-guid.ts). The rows are dotnet/runtime's own
 * (`System.Runtime.Tests/System/GuidTests.cs`, `GuidStrings_Valid_TestData` / `GuidStrings_Invalid_TestData`), with
 * the message each failure path of `Guid.cs` throws under `Guid.Parse` (`Resources/Strings.resx`).
 */
import { parseGuid } from './dotnet-guid';

const TEST_GUID = 'a8a110d5-fc49-43c5-bf46-802db8f843ff';
const ALL_D = 'dddddddd-dddd-dddd-dddd-dddddddddddd';
const WS = '  \r \n \t ';

describe('Guid.Parse, as the server parses a proposed event id', () => {
  it.each([
    ['N', 'a8a110d5fc4943c5bf46802db8f843ff', TEST_GUID],
    ['N, upper case, white space around', `${WS}A8A110D5FC4943C5BF46802DB8F843FF${WS}`, TEST_GUID],
    ['D, upper case', 'A8A110D5-FC49-43C5-BF46-802DB8F843FF', TEST_GUID],
    ['D, white space around', `${WS}${TEST_GUID}   \r \n \t  `, TEST_GUID],
    ['B', `{${TEST_GUID}}`, TEST_GUID],
    ['P', `(${TEST_GUID})`, TEST_GUID],
    ['P, white space around', `${WS}(${TEST_GUID})${WS}`, TEST_GUID],
    ['X', '{0xa8a110d5,0xfc49,0x43c5,{0xbf,0x46,0x80,0x2d,0xb8,0xf8,0x43,0xff}}', TEST_GUID],
    [
      'X, white space anywhere',
      ' { 0 x a 8\t a 1 1 0 d 5 , 0 x f c 4\r 9 , 0 x 4 3 c 5 , { 0 x b f , 0 x 4 6 , 0 x 8 0 , 0\n x 2 d , 0 x b 8 , 0 x f 8 , 0 x 4 3 , 0 x f f } }   ',
      TEST_GUID,
    ],
    ['X, short components', '{0x0,0x0,0x0,{0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0}}', '00000000-0000-0000-0000-000000000000'],
    ['X, "0x+" prefixes', '{0x+dddddddd,0x+dddd,0x+dddd,{0x+dd,0x+dd,0x+dd,0x+dd,0x+dd,0x+dd,0x+dd,0x+dd}}', ALL_D],
    ['X, "0x0x" prefixes', '{0x0xdddddddd,0x0xdddd,0x0xdddd,{0x0xdd,0x0xdd,0x0xdd,0x0xdd,0x0xdd,0x0xdd,0x0xdd,0x0xdd}}', ALL_D],
    ['X, "0x+0X" prefixes', '{0x+0Xdddddddd,0x+0Xdddd,0x+0Xdddd,{0x+0Xdd,0x+0Xdd,0x+0Xdd,0x+0Xdd,0x+0Xdd,0x+0Xdd,0x+0Xdd,0x+0Xdd}}', ALL_D],
    ['D, "+" in each group', '+ddddddd-+ddd-+ddd-+ddd-+ddddddddddd', '0ddddddd-0ddd-0ddd-0ddd-0ddddddddddd'],
    ['D, "0x" in each group', '0xdddddd-0xdd-0xdd-0xdd-0xdddddddddd', '00dddddd-00dd-00dd-00dd-00dddddddddd'],
    ['B, "+0X" in each group', '{+0Xddddd-+0Xd-+0Xd-+0Xd-+0Xddddddddd}', '000ddddd-000d-000d-000d-000ddddddddd'],
    ['P, "+0X" in each group', '(+0Xddddd-+0Xd-+0Xd-+0Xd-+0Xddddddddd)', '000ddddd-000d-000d-000d-000ddddddddd'],
    [
      'X, a 7-digit short component (the uint is cut to 16 bits)',
      '{0xdddddddd,0x1234567,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}',
      'dddddddd-4567-dddd-dddd-dddddddddddd',
    ],
    ['N, U+0085 and U+3000 around (char.IsWhiteSpace)', '\u0085\u3000a8a110d5fc4943c5bf46802db8f843ff\u3000', TEST_GUID],
  ])('accepts %s and reads it as the D form', (_form, input, guid) => {
    expect(parseGuid(input)).toEqual({ guid });
  });

  const unrecognized = 'Unrecognized Guid format.';
  const invLen = 'Guid should contain 32 digits with 4 dashes (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).';
  const dashes = 'Dashes are in the wrong position for GUID parsing.';
  const invalidChar = 'Guid string should only contain hexadecimal characters.';
  const comma = "Could not find a comma, or the length between the previous token and the comma was zero (i.e., '0x,'etc.).";
  const braceAfterLastNumber = "Could not find a brace, or the length between the previous token and the brace was zero (i.e., '0x,'etc.).";
  it.each([
    ['empty', '', unrecognized],
    ['only white space', '     \t', unrecognized],
    ['31 digits', 'd'.repeat(31), unrecognized],
    ['33 digits', 'd'.repeat(33), invLen],
    ['N in braces', `{${'d'.repeat(32)}}`, 'Expected 0x prefix.'],
    ['inner white space', 'd d d d d  dd d d d d d dd d d d dd d d dd d dd d d d d d d', invLen],
    ['a non-hex digit in N', `G${'d'.repeat(31)}`, invalidChar],
    ['a non-hex digit in D', 'dddddddd-Gddd-dddd-dddd-dddddddddddd', invalidChar],
    ['a dash out of place', 'dddddddd-ddddd-ddd-dddd-dddddddddddd', dashes],
    ['a doubled dash (the dashes D checks are in place)', 'dddddddd--ddd-dddd-dddd-dddddddddddd', invalidChar],
    ['8-4-4-4-9', 'dddddddd-dddd-dddd-dddd-ddddddddd', invLen],
    ['B closed by a parenthesis', '{dddddddd-dddd-dddd-dddd-dddddddddddd)', invLen],
    ['BOM around (not white space in .NET)', `\ufeff${TEST_GUID}`, invLen],
    ['D with "0x" wider than its group', '0x1234567-dddd-dddd-dddd-dddddddddddd', invLen],
    ['X missing a group', '{0xdddddddd, 0xdddd, 0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', comma],
    ['X with an empty last byte', '{0xdddddddd,0xdddd,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0x}}', braceAfterLastNumber],
    [
      'X without its last brace',
      '{0xdddddddd, 0xdddd, 0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}',
      'Could not find the ending brace.',
    ],
    [
      'X with junk at the end',
      '{0xdddddddd,0xdddd,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}abc',
      'Additional non-parsable characters are at the end of the string.',
    ],
    ['X without commas (a uint overflow)', '{0xdddddddd 0xdddd 0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', unrecognized],
    ['X with a 3-digit byte (a byte overflow)', '{0xdddddddd, 0xdddd, 0xdddd,{0xddd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', unrecognized],
    ['X with a non-hex digit', '{0xGddddddd,0xdddd,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', invalidChar],
    ['X without its inner brace', '{0xdddddddd, 0xdddd, 0xdddd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', 'Expected {0xdddddddd, etc}.'],
    ['X in parentheses', '(0xdddddddd, 0xdddd, 0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd})', invLen],
    ['X with an empty component', '{0x, 0xdddd, 0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}', comma],
  ])("refuses %s with .NET's message", (_what, input, error) => {
    expect(parseGuid(input)).toEqual({ error });
  });
});
