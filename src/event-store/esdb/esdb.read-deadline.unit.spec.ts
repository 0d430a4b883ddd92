import { defaultDeadlineOf } from './esdb.read-deadline';

describe('defaultDeadlineOf', () => {
  it("reads the client's defaultDeadline setting from a connection string, as the client spells its keys", () => {
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113?tls=false&defaultDeadline=2500')).toBe(2500);
    expect(defaultDeadlineOf('esdb://a:2113,b:2113?DEFAULT_DEADLINE=700&tls=false')).toBe(700);
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113?tls=false')).toBeUndefined();
    expect(defaultDeadlineOf('esdb://127.0.0.1:2113')).toBeUndefined();
  });
});
