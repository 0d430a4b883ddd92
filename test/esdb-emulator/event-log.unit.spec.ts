/**
 * Positions step by the size a LogV2 prepare takes in the server's log (`prepareSizeOnDisk`, event-log.ts): the
 * gap between two events in `$all` is the first one's record, byte for byte.
 */
import { EventLog } from './event-log';

const bytes = (text: string) => new TextEncoder().encode(text);
const event = (type: string, data: string) => ({
  id: crypto.randomUUID(),
  type,
  contentType: 'application/json',
  data: bytes(data),
  metadata: bytes(''),
});

describe('the event log', () => {
  it('puts the next event 88 bytes of fixed fields plus its names and payload after the previous one', () => {
    const log = new EventLog();
    const [first, second] = log.append('order-1', [event('Paid', '{}'), event('Paid', '{}')]);
    // 88 + (1 + 7) stream + (1 + 4) type + 2 data + 0 metadata
    expect(second.position - first.position).toBe(103n);
  });

  it('counts names in UTF-8 behind a 7-bit length that grows past 127 bytes', () => {
    const log = new EventLog();
    const stream = `order-${'é'.repeat(61)}`; // 6 + 122 = 128 UTF-8 bytes: a two-byte length
    const [first, second] = log.append(stream, [event('Paid', ''), event('Paid', '')]);
    expect(second.position - first.position).toBe(BigInt(88 + 2 + 128 + 5));
  });
});
