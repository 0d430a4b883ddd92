/**
 * LOG_LEVEL as an operator sets it, on the compiled api and worker processes: the lines below the
 * level are not printed, whichever part of the service logs them. It used to filter only
 * graphile-worker's lines: with `LOG_LEVEL=warn` the worker still printed every projection start and
 * its debug lines, and the api every route it mapped.
 */
import { createTestDatabase } from '../../test/harness/test-database';
import { startService } from '../../test/harness/service-process';
import { startWorkerProcess } from '../../test/harness/worker-process';

jest.setTimeout(90_000);

/** The severity words of Nest's log lines in a process's output, colours removed. */
function severities(output: string): Set<string> {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  return new Set([...plain.matchAll(/^\[Nest\] \d+ +- .*? +(FATAL|ERROR|WARN|LOG|DEBUG|VERBOSE) \[/gm)].map((match) => match[1]));
}

const noProvider = { IDEM_SANDBOX: 'false', STRIPE_API_BASE: 'http://127.0.0.1:9' };

describe('LOG_LEVEL', () => {
  describe('when it is warn', () => {
    it('keeps the worker from printing info and debug lines while it starts its projections and jobs', async () => {
      const worker = await startWorkerProcess({
        DATABASE_URL: await createTestDatabase('log_level_worker'),
        LOG_LEVEL: 'warn',
        ...noProvider,
      });
      await worker.kill('SIGTERM');
      expect(worker.output()).toContain('Idem worker');
      const printed = severities(worker.output());
      expect(printed.has('LOG')).toBe(false);
      expect(printed.has('DEBUG')).toBe(false);
    });

    it('keeps the api from printing the routes it maps', async () => {
      const api = await startService({ DATABASE_URL: await createTestDatabase('log_level_api'), LOG_LEVEL: 'warn', ...noProvider });
      const code = await api.stop('SIGTERM');
      expect(code).toBe(0);
      expect(api.output()).toContain('Idem is running');
      expect(severities(api.output()).has('LOG')).toBe(false);
    });
  });

  describe('when it is info', () => {
    it('prints the worker’s info lines', async () => {
      const worker = await startWorkerProcess({
        DATABASE_URL: await createTestDatabase('log_level_info'),
        LOG_LEVEL: 'info',
        ...noProvider,
      });
      await worker.kill('SIGTERM');
      expect(severities(worker.output()).has('LOG')).toBe(true);
    });
  });
});
