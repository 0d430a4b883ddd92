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

/** What `idem <args> --help` prints, and its exit code. */
async function helpOf(...args: string[]): Promise<{ code: number; out: string }> {
  const { context: c, out } = context();
  const code = await runCli([...args, '--help'], c);
  return { code, out: out() };
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
