/**
 * `idem sync …`: contact imports from the command line.
 * - `import <file> --source <name>`: an NDJSON or CSV export, streamed, as a run; the same file again
 *   goes on from its last recorded line (the run is named by the file's content hash).
 * - `run --source <name>`: a pull run from a configured source (the sandbox CRM in development), driven
 *   here with a progress bar; `--no-wait` leaves it to the workers, which take it up at their next
 *   sweep for runs no live process drives (every 30 s: resume-runs.ts).
 * - `status <runId>` (folded from the run's stream), `list [--status …] [--limit N]` (every pull and
 *   file run, newest first, page after page of the sync_runs read model — as current as the workers'
 *   projections — or the newest N), `resume <runId>` (a stopped or orphaned pull run; one that another
 *   live process drives is not resumed here: it says by whom and since when, exit code
 *   EXIT_DRIVEN_ELSEWHERE). Both show the CRM a pull run is tied to (RunView.sourceIdentity).
 *
 * This file defines the commands (what `idem --help` and the parser need); what they do is in
 * sync.actions.ts, loaded when one runs: it loads the pull-run drivers, TypeORM and the CSV parser.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliCommand } from '../../../src/cli/cli-context';
import { isIsoDateTime } from '../import-contact/iso-date-time';
import { LISTED_STATUSES, unlistedStatusReason, type ListedStatus } from './listed-statuses';

const actions = () => import('./sync.actions');

function sinceArgument(value: string): string {
  if (!isIsoDateTime(value)) throw new InvalidArgumentError('expected an ISO-8601 date-time such as 2026-12-01T10:00:00Z');
  return value;
}

/** A status to list by; `failed` is refused with the reason (listed-statuses.ts), not answered with nothing. */
function statusArgument(value: string): ListedStatus {
  const unlisted = unlistedStatusReason(value);
  if (unlisted) throw new InvalidArgumentError(unlisted);
  return value as ListedStatus;
}

function limitArgument(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new InvalidArgumentError('expected a whole number of runs, at least 1');
  return Number(value);
}

export const syncCommand: CliCommand = (context) => {
  const sync = new Command('sync').description('contact sync: import files, start, watch and resume import runs');
  sync
    .command('import <file>')
    .description('import an NDJSON or CSV export as a run (the same file again resumes where it stopped)')
    .requiredOption('--source <name>', 'the source the records come from, e.g. crm')
    .action(async (file: string, options: { source: string }) => (await actions()).syncImport(context, file, options));
  sync
    .command('run')
    .description('start a pull run from a configured source and follow it')
    .requiredOption('--source <name>', 'the configured source to pull from, e.g. crm')
    .option('--since <iso>', 'only records changed since then, where the source supports it', sinceArgument)
    .option('--no-wait', 'record the run and leave it to the workers: a running worker starts it at its next sweep (every 30 s)')
    .action(async (options: { source: string; since?: string; wait: boolean }) => (await actions()).syncRun(context, options));
  sync
    .command('status <runId>')
    .description('progress and outcome counts of a run')
    .option('--follow', 'show a progress bar while the run is running, until it ends')
    .action(async (runId: string, options: { follow?: boolean }) => (await actions()).syncStatus(context, runId, options));
  sync
    .command('list')
    .description('every import run (pull and file), newest first, as the workers last projected them')
    // choices() for the help's list; the parser after it says why `failed` is not one.
    .addOption(
      new Option('--status <status>', 'only runs with this status (no listed run ends failed: only pushed batches do)')
        .choices(LISTED_STATUSES)
        .argParser(statusArgument),
    )
    .option('--limit <n>', 'stop after the newest n runs', limitArgument)
    .action(async (options: { status?: ListedStatus; limit?: number }) => (await actions()).syncList(context, options));
  sync
    .command('resume <runId>')
    .description('resume a stopped or orphaned pull run from its last recorded page (a file run: import the same file again)')
    .option(
      '--source-moved',
      "the run's CRM now answers at this IDEM_CRM_URL (it moved): drive the run against it from now on, and record that",
    )
    .action(async (runId: string, options: { sourceMoved?: boolean }) => (await actions()).syncResume(context, runId, options));
  return sync;
};
