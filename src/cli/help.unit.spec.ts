/**
 * `idem --help` and the help of each command say what the commands do and need. They open no
 * database and read no configuration.
 */
import { PassThrough } from 'node:stream';
import { buildCli, runCli } from '../cli';
import type { CliContext } from './cli-context';

function context(): { context: CliContext; out: () => string } {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const refuse = () => {
    throw new Error('help must not read the configuration or open the database');
  };
  return {
    context: {
      readModels: [],
      reactors: [],
      config: refuse,
      runtime: () => Promise.reject(new Error('help must not open the database')),
      stdout,
      stderr: new PassThrough(),
      exitCode: 0,
    },
    out: () => out,
  };
}

/** What `idem <args> --help` prints (commander's line wrapping undone), and its exit code. */
async function helpOf(...args: string[]): Promise<{ code: number; out: string }> {
  const { context: c, out } = context();
  const code = await runCli([...args, '--help'], c);
  return { code, out: out().replace(/\s+/g, ' ') };
}

describe('idem --help', () => {
  it('names every command group in its description, sync and retention too', async () => {
    const groups = buildCli(context().context).commands.map((command) => command.name());
    expect(groups).toEqual(expect.arrayContaining(['projections', 'audit', 'recover', 'retention', 'sync']));
    const { code, out } = await helpOf();
    expect(code).toBe(0);
    expect(out).toContain(`Idem: operate the ledger (${groups.join(', ')})`);
  });
});

describe('idem recover --help', () => {
  it('says that a pending order is charged, not only verified', async () => {
    const { code, out } = await helpOf('recover');
    expect(code).toBe(0);
    expect(out).toContain('an order still pending (no worker took its job) is charged here, as its first attempt');
    expect(out).toContain('verified with the provider and its outcome recorded before anything is sent again');
  });

  it('is listed in idem --help with a line that says it charges pending orders', async () => {
    expect((await helpOf()).out).toContain(
      'recover [options] recover stuck charges now: verify processing or unknown ones with the provider, charge pending ones',
    );
  });
});

describe('a required option', () => {
  it.each([
    [['sync', 'import'], '--source <name> the source the records come from, e.g. crm (required)'],
    [['sync', 'run'], '--source <name> the configured source to pull from, e.g. crm (required)'],
  ])('is marked required in idem %j --help', async (command, line) => {
    const { code, out } = await helpOf(...command);
    expect(code).toBe(0);
    expect(out).toContain(line);
  });

  it('is not claimed for an optional one', async () => {
    const { out } = await helpOf('sync', 'run');
    expect(out).toContain('--since <iso> only records changed since then, where the source supports it --no-wait');
  });
});

describe('idem audit export --help', () => {
  it('says that it refuses to write over an existing file', async () => {
    const { code, out } = await helpOf('audit', 'export');
    expect(code).toBe(0);
    expect(out).toContain('never writes over an existing file (exit code 2)');
    expect(out).toContain('Arguments: file where to write the export: a path that does not exist yet');
  });
});
