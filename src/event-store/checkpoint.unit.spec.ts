import { checkpointThrough, describeCheckpoint, encodeCheckpoint } from './checkpoint';

describe('describeCheckpoint', () => {
  it('shows an event’s position as it is', () => {
    expect(describeCheckpoint(encodeCheckpoint(837n, 102n))).toBe('837/102');
  });

  describe('when a filtered read moved on past every event of a transaction', () => {
    it('shows the transaction it has read up to, without the "all of it" minor part', () => {
      const horizon = checkpointThrough('5169');
      expect(horizon).toBe('5169/9223372036854775807');
      expect(describeCheckpoint(horizon)).toBe('up to 5169');
    });
  });
});
