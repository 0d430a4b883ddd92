/**
 * A proposed message's id as the server reads it: `Uuid.FromDto(proposedMessage.Id).ToGuid()`
 * (`Services/Transport/Grpc/Uuid.cs`, kurrent-io/KurrentDB v24.10.5). The string form goes through `Guid.Parse`
 * (dotnet-guid.ts); the structured form is two int64 halves, most significant first; a missing id throws
 * `ArgumentNullException(nameof(dto))` and an empty oneof `ArgumentException($"Invalid argument: {dto.ValueCase}",
 * nameof(dto))`. Whatever form came in, the server keeps a `Guid` and reads it back as its `ToString()`: the
 * lower-case D form (`Streams.Read.cs` `ConvertToRecordedEvent`).
 */
import { sharedPb, type SharedPb } from './proto';
import { parseGuid } from './dotnet-guid';

export interface EventId {
  /** The server's form of the id, or the text sent when it does not parse. */
  id: string;
  /** What `Uuid.FromDto` throws for it, if anything. */
  error?: string;
  /**
   * `proposedMessage.Id.ToString()`, which the Append path puts in a MaximumAppendEventSizeExceeded refusal
   * (`Streams.Append.cs`): Google.Protobuf's diagnostic JSON of the message; undefined when the id is missing
   * (`ToString()` on null throws).
   */
  diagnostic?: string;
}

export function eventIdFromDto(dto: SharedPb.UUID | undefined): EventId {
  if (!dto) return { id: '', error: "Value cannot be null. (Parameter 'dto')" };
  if (dto.hasStructured()) {
    const structured = dto.getStructured()!;
    const msb = BigInt.asIntN(64, BigInt(structured.getMostSignificantBits()));
    const lsb = BigInt.asIntN(64, BigInt(structured.getLeastSignificantBits()));
    return { id: guidOfHalves(msb, lsb), diagnostic: structuredJson(msb, lsb) };
  }
  if (!dto.hasString()) return { id: '', error: "Invalid argument: None (Parameter 'dto')", diagnostic: '{ }' };
  const text = dto.getString();
  const parsed = parseGuid(text);
  const diagnostic = `{ "string": ${jsonString(text)} }`;
  return 'guid' in parsed ? { id: parsed.guid, diagnostic } : { id: text, error: parsed.error, diagnostic };
}

/** `Uuid(long msb, long lsb).ToGuid()`: the two halves big-endian, in order, make the D form. */
export function guidOfHalves(msb: bigint, lsb: bigint): string {
  const bytes = Buffer.alloc(16);
  bytes.writeBigInt64BE(msb, 0);
  bytes.writeBigInt64BE(lsb, 8);
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `Uuid.FromGuid(guid).ToDto()`: the structured form, the D form's 32 digits as two signed int64s, most significant first. */
export function structuredUuid(guid: string): SharedPb.UUID {
  const digits = guid.replace(/-/g, '');
  const half = (hex: string) => BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
  const structured = new sharedPb.UUID.Structured()
    .setMostSignificantBits(half(digits.slice(0, 16)))
    .setLeastSignificantBits(half(digits.slice(16)));
  return new sharedPb.UUID().setStructured(structured);
}

/** `JsonFormatter`: int64 as quoted decimals, fields with default values left out, `{ a, b }` spacing. */
function structuredJson(msb: bigint, lsb: bigint): string {
  const fields = [...(msb !== 0n ? [`"mostSignificantBits": "${msb}"`] : []), ...(lsb !== 0n ? [`"leastSignificantBits": "${lsb}"`] : [])];
  return `{ "structured": ${fields.length ? `{ ${fields.join(', ')} }` : '{ }'} }`;
}

/**
 * `JsonFormatter.WriteString` (protocolbuffers/protobuf `csharp/src/Google.Protobuf/JsonFormatter.cs`): `"` and `\`
 * escaped, C0/C1 controls, `<`, `>` and a set of invisible or separator characters as `\uXXXX` (short forms for
 * \b \t \n \f \r), everything else as is.
 */
function jsonString(text: string): string {
  const SHORT: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (SHORT[c]) out += SHORT[c];
    else if (code > 0xffff) out += [...c.split('')].map(unicodeEscape).join('');
    else if (escapedInJson(code)) out += unicodeEscape(c);
    else out += c;
  }
  return `${out}"`;
}

const unicodeEscape = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

function escapedInJson(code: number): boolean {
  if (code < 0x20 || code === 0x3c || code === 0x3e || (code >= 0x7f && code < 0xa0)) return true;
  if ([0xfeff, 0xfff9, 0xfffa, 0xfffb, 0x00ad, 0x06dd, 0x070f, 0x17b4, 0x17b5].includes(code)) return true;
  const ranges: Array<[number, number]> = [
    [0x0600, 0x0603],
    [0x200b, 0x200f],
    [0x2028, 0x202e],
    [0x2060, 0x2064],
    [0x206a, 0x206f],
  ];
  return ranges.some(([low, high]) => code >= low && code <= high);
}
