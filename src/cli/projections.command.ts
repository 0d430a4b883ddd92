/**
 * `idem projections status | rebuild | verify | drop-old`: operating the read models (DESIGN.md §8).
 * Each action imports its work when it runs: `idem --help` and the other commands load none of it.
 */
import { Command, InvalidArgumentError } from 'commander';
import type { CliCommand } from './cli-context';

const positiveInt = (raw: string) => {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError('expected a positive integer');
  return value;
};

export const projectionsCommand: CliCommand = (context) => {
  const projections = new Command('projections').description('read models and reactors: lag, blue/green rebuilds, verification');

  projections
    .command('status')
    .description('per projection version: state, checkpoint, events processed, lag in events and seconds')
    .option('--json', 'machine-readable output')
    .option('--max-count <n>', 'stop counting pending events at n (default 1000000)', positiveInt)
    .action(async (options) => (await import('./projections/status')).projectionsStatus(context, options));

  projections
    .command('rebuild')
    .description('build the next version of read models from the start of history beside the live ones, then switch readers to it')
    .argument('<names...>', 'read models to rebuild (one pass over the log for all), or "all"')
    .option('--batch-size <n>', 'events per transaction (default 5000)', positiveInt)
    .action(async (names: string[], options) => (await import('./projections/rebuild')).projectionsRebuild(context, names, options));

  projections
    .command('verify')
    .description('recompute every row from the event log and report each difference (exit code 1 on drift)')
    .argument('[names...]', 'read models to verify (default: all)')
    .option('--version <n>', 'verify this version instead of the live one', positiveInt)
    .option('--json', 'machine-readable output')
    .action(async (names: string[], options) => (await import('./projections/verify')).projectionsVerify(context, names, options));

  projections
    .command('drop-old')
    .description('drop the tables of versions a rebuild has retired')
    .argument('<names...>', 'read models, or "all"')
    .action(async (names: string[]) => (await import('./projections/drop-old')).projectionsDropOld(context, names));

  return projections;
};
