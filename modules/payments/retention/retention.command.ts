/** `idem retention archive --older-than 30d`: move finished job rows and webhook dedupe rows to archive tables. */
import { Command, InvalidArgumentError } from 'commander';
import { EXIT_ERROR, println, type CliCommand } from '../../../src/cli/cli-context';
import { counted } from '../../../src/text/counted';
import { parseDuration } from '../../../src/config/duration';
import { AppError } from '../../../src/errors/app-error';
import { archiveFinishedRows } from './archive-finished-rows';

export const retentionCommand: CliCommand = (context) => {
  const retention = new Command('retention').description('archive rows no retry can need any more (never dropped)');
  retention
    .command('archive')
    .description('move exhausted job rows and webhook dedupe rows older than --older-than to the archive tables')
    .option('--older-than <duration>', 'age of the rows to archive (default 30d; must exceed the longest retry window)', (raw: string) => {
      try {
        return parseDuration(raw);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    })
    .action(async (options: { olderThan?: number }) => {
      const runtime = await context.runtime();
      try {
        const result = await archiveFinishedRows(runtime.pool, { olderThanMs: options.olderThan ?? 30 * 86_400_000 });
        println(
          context.stdout,
          `archived ${counted(result.jobs, 'job row')} and ${counted(result.webhookDeliveries, 'webhook dedupe row')} older than ${result.cutoff}`,
        );
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        println(context.stderr, `idem: ${error.message}`);
        context.exitCode = EXIT_ERROR;
      }
    });
  return retention;
};
