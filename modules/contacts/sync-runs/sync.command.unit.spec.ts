/**
 * `idem sync import|run` refuse a source the routes refuse, before they open the database: an
 * unknown source would start a `contact-<source>.*` namespace no route reads, and a pull from a
 * source with no address would only fail its first page five times.
 */
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli';
import { EXIT_ERROR, type CliContext } from '../../../src/cli/cli-context';
import { loadConfig, type IdemConfig } from '../../../src/config/config';

async function idem(config: IdemConfig, ...args: string[]) {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (chunk) => (err += chunk));
  let opened = false;
  const context: CliContext = {
    readModels: [],
    reactors: [],
    config: () => config,
    runtime: () => {
      opened = true;
      return Promise.reject(new Error('the database must not be opened'));
    },
    stdout: new PassThrough(),
    stderr,
    exitCode: 0,
  };
  const code = await runCli(args, context);
  return { code, err, opened };
}

const development = loadConfig({});

describe('idem sync', () => {
  it.each([
    ['import', ['sync', 'import', 'contacts.ndjson', '--source', 'foo']],
    ['run', ['sync', 'run', '--source', 'foo']],
  ])('%s refuses an unknown source with exit code 2 before opening the database', async (_command, args) => {
    const result = await idem(development, ...args);
    expect(result).toEqual({
      code: EXIT_ERROR,
      err: expect.stringContaining('No contact source is configured under the name foo'),
      opened: false,
    });
  });

  it.each([['garbage'], ['2026-13-45T00:00:00Z'], ['2026-01-01T00:00:00+25:00']])(
    'run refuses --since %s with exit code 2 before opening the database',
    async (since) => {
      const result = await idem(development, 'sync', 'run', '--source', 'crm', '--since', since);
      expect(result).toEqual({ code: EXIT_ERROR, err: expect.stringContaining('expected an ISO-8601 date-time'), opened: false });
    },
  );

  it('list refuses --status failed, saying why, with exit code 2 before opening the database', async () => {
    const result = await idem(development, 'sync', 'list', '--status', 'failed');
    expect(result).toEqual({
      code: EXIT_ERROR,
      err: expect.stringContaining('only a pushed batch (POST /v1/contacts/import) ends failed'),
      opened: false,
    });
  });

  it('list still refuses a status that does not exist, naming those it lists by', async () => {
    const result = await idem(development, 'sync', 'list', '--status', 'lost');
    expect(result).toEqual({ code: EXIT_ERROR, err: expect.stringContaining('running, completed, needs_review'), opened: false });
  });

  it.each([['0'], ['-3'], ['ten'], ['2.5']])('list refuses --limit %s with exit code 2 before opening the database', async (limit) => {
    const result = await idem(development, 'sync', 'list', '--limit', limit);
    expect(result).toEqual({ code: EXIT_ERROR, err: expect.stringContaining('expected a whole number of runs'), opened: false });
  });

  it('run refuses the crm in production without IDEM_CRM_URL, even with the provider configured', async () => {
    const production = { ...development, production: true, payments: { ...development.payments, stripeApiBase: 'https://api.stripe.com' } };
    const result = await idem(production, 'sync', 'run', '--source', 'crm');
    expect(result).toEqual({ code: EXIT_ERROR, err: expect.stringContaining('IDEM_CRM_URL'), opened: false });
  });
});
