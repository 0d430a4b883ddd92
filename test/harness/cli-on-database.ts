/**
 * `idem <args>` run in the test process against a projection database, as the CLI specs drive it:
 * answers the exit code and what it printed on stdout and stderr.
 */
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli';
import { loadConfig } from '../../src/config/config';
import type { Projection } from '../../src/subscriptions/projection';
import type { AnyReadModel } from '../../src/subscriptions/read-models/read-model';
import type { ProjectionDatabase } from '../projections/projection-harness';

export interface CliOptions {
  readModels?: AnyReadModel[];
  reactors?: Projection[];
  /** Aborted as Ctrl+C aborts the command. */
  interrupted?: AbortSignal;
}

export async function cliOn(
  db: ProjectionDatabase,
  args: string[],
  options: CliOptions = {},
): Promise<{ code: number; out: string; err: string }> {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const [out, err]: Buffer[][] = [[], []];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await runCli(args, {
    readModels: options.readModels ?? [],
    reactors: options.reactors ?? [],
    config: () => loadConfig({ DATABASE_URL: db.url }),
    runtime: async () => ({ pool: db.pool, store: db.store, databaseUrl: db.url }),
    stdout,
    stderr,
    exitCode: 0,
    interrupted: options.interrupted,
  });
  return { code, out: Buffer.concat(out).toString(), err: Buffer.concat(err).toString() };
}
