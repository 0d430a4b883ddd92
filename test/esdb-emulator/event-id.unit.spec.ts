/**
 * `Uuid.FromDto` (`Grpc/Uuid.cs`, v24.10.5) and the id message's `ToString()` (Google.Protobuf `JsonFormatter`
 * diagnostic JSON), as event-id.ts models them.
 */
import { eventIdFromDto } from './event-id';
import { sharedPb } from './proto';

const structured = (msb: bigint, lsb: bigint) =>
  new sharedPb.UUID().setStructured(
    new sharedPb.UUID.Structured().setMostSignificantBits(msb.toString()).setLeastSignificantBits(lsb.toString()),
  );

describe('a proposed event id, as the server reads it', () => {
  it('parses the string form and quotes it as sent, JSON-escaped', () => {
    expect(eventIdFromDto(new sharedPb.UUID().setString(' A8A110D5FC4943C5BF46802DB8F843FF'))).toEqual({
      id: 'a8a110d5-fc49-43c5-bf46-802db8f843ff',
      diagnostic: '{ "string": " A8A110D5FC4943C5BF46802DB8F843FF" }',
    });
    expect(eventIdFromDto(new sharedPb.UUID().setString('<"a\\b">\u2028\u0007'))).toEqual({
      id: '<"a\\b">\u2028\u0007',
      error: 'Unrecognized Guid format.',
      diagnostic: '{ "string": "\\u003c\\"a\\\\b\\"\\u003e\\u2028\\u0007" }',
    });
  });

  it('reads the structured form as two signed halves, leaving zero halves out of the JSON', () => {
    expect(eventIdFromDto(structured(-1n, 0n))).toEqual({
      id: 'ffffffff-ffff-ffff-0000-000000000000',
      diagnostic: '{ "structured": { "mostSignificantBits": "-1" } }',
    });
    expect(eventIdFromDto(structured(0n, 0n))).toEqual({ id: '00000000-0000-0000-0000-000000000000', diagnostic: '{ "structured": { } }' });
  });

  it('throws what Uuid.FromDto throws for a missing id or an empty oneof', () => {
    expect(eventIdFromDto(undefined)).toEqual({ id: '', error: "Value cannot be null. (Parameter 'dto')" });
    expect(eventIdFromDto(new sharedPb.UUID())).toEqual({ id: '', error: "Invalid argument: None (Parameter 'dto')", diagnostic: '{ }' });
  });
});
