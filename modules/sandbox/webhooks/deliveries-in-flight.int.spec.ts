/**
 * Many webhook deliveries waiting at once are normal: an api that answers slowly (a stalled database
 * behind it) holds each for up to its timeout, and retries pile up. Each delivery in flight, and each
 * wait before a retry, listens on the sandbox's one shutdown signal until it settles; past ten of them
 * Node warned "MaxListenersExceededWarning: 11 abort listeners added to [AbortSignal]" as if they leaked
 * (seen in `npm start`'s api during a 30 s PostgreSQL stall). Run in a child process: Node's warning
 * goes to the real process, which a jest test does not listen to.
 */
import { join } from 'node:path';
import { ReportingChild } from '../../../test/harness/reporting-child';

describe('webhook deliveries in flight', () => {
  it('are not taken for a leak of listeners, however many wait at once', async () => {
    const child = new ReportingChild(join(__dirname, 'deliveries-in-flight.process.ts'), { DELIVERIES: '20' });
    try {
      const report = await child.waitFor('every delivery held by the endpoint', (r) => r.event === 'held');
      expect(report).toEqual({ event: 'held', deliveries: 20, warnings: [] });
    } finally {
      await child.kill();
    }
  });
});
