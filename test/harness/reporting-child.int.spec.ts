import { join } from 'node:path';
import { ReportingChild } from './reporting-child';

const SCRIPT = join(__dirname, 'report-and-exit.ts');
/** Far longer than the child lives: a wait that lasted this long would have kept its timer to the end. */
const LONG_WAIT_MS = 50_000;

describe('ReportingChild.waitFor', () => {
  describe('when the child exits without the awaited report', () => {
    it('fails at once, saying the child exited, instead of waiting out its timeout', async () => {
      const child = new ReportingChild(SCRIPT, { EXIT_CODE: '3' });
      const startedAt = Date.now();
      await expect(child.waitFor('a report that never comes', (r) => r.event === 'never', LONG_WAIT_MS)).rejects.toThrow(
        /exited \(code 3\) while waiting for a report that never comes/,
      );
      expect(Date.now() - startedAt).toBeLessThan(LONG_WAIT_MS);
    });

    it('still finds a report the child wrote just before exiting', async () => {
      const child = new ReportingChild(SCRIPT, {});
      await child.exited;
      expect(await child.waitFor('the started report', (r) => r.event === 'started', LONG_WAIT_MS)).toEqual({ event: 'started' });
    });
  });
});
