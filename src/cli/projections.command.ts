/**
 * `idem projections status | rebuild | verify | drop-old`: operating the read models (DESIGN.md §8).
 */
import { Command, InvalidArgumentError } from 'commander';
import { dropOldVersions } from '../subscriptions/read-models/versions';
import { println, type CliCommand } from './cli-context';
import { projectionsRebuild } from './projections/rebuild';
import { selectReadModels } from './projections/select-read-models';
import { projectionsStatus } from './projections/status';
import { projectionsVerify } from './projections/verify';

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
    .action((options) => projectionsStatus(context, options));

  projections
    .command('rebuild')
    .description('build the next version of read models from the start of history beside the live ones, then switch readers to it')
    .argument('<names...>', 'read models to rebuild (one pass over the log for all), or "all"')
    .option('--batch-size <n>', 'events per transaction (default 5000)', positiveInt)
    .action((names: string[], options) => projectionsRebuild(context, names, options));

  projections
    .command('verify')
    .description('recompute every row from the event log and report each difference (exit code 1 on drift)')
    .argument('[names...]', 'read models to verify (default: all)')
    .option('--version <n>', 'verify this version instead of the live one', positiveInt)
    .option('--json', 'machine-readable output')
    .action((names: string[], options) => projectionsVerify(context, names, options));

  projections
    .command('drop-old')
    .description('drop the tables of versions a rebuild has retired')
    .argument('<names...>', 'read models, or "all"')
    .action(async (names: string[]) => {
      const { pool } = await context.runtime();
      for (const model of selectReadModels(context.readModels, names)) {
        const dropped = await dropOldVersions(pool, model);
        println(
          context.stdout,
          dropped.length
            ? `${model.name}: dropped ${dropped.map((v) => `${model.name}_v${v}`).join(', ')}`
            : `${model.name}: no retired version`,
        );
      }
    });

  return projections;
};
