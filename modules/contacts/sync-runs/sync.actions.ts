/** What the `idem sync` commands do (sync.command.ts defines them and loads this when one runs). */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { listRuns, runKeyOf, type RunKey } from '../../../projections/sync-runs/sync-runs.queries';
import { EXIT_CHECK_FAILED, println, type CliContext } from '../../../src/cli/cli-context';
import { unreadableFile } from '../../../src/cli/unreadable-file';
import { configuredContactSources } from '../contact-source/configured-sources';
import { assertKnownSource, assertPullableSource } from '../contact-sources';
import type { ImportRunState } from '../import-run.state';
import { driveRun, loadRun } from '../pull-run/drive-run';
import { knownRun } from '../pull-run/run-folds';
import { isPermanent, retryDelay } from '../pull-run/run-drivers';
import { RunDrivenElsewhere, runLocksOn, type HeldRun, type RunHolder } from '../pull-run/run-lock';
import { resumeRun, startPullRun } from '../pull-run/start-run';
import { sourceMovedReason } from '../pull-run/record-page.decision';
import { fileRunNotResumed } from './file-run-resume';
import { importLabel, pullLabel, resumeLabel, RunProgressBar, runListLine, runStatusLine, watchLabel } from './run-progress';
import { toRunView, type RunView } from '../import-run.view';
import type { ListedStatus } from './listed-statuses';

/**
 * `idem sync resume` of a run another live process drives: nothing is written or driven here; the run
 * goes on there. sysexits' EX_TEMPFAIL ("try again later"): it is neither the run's failure (1) nor a
 * command that could not run (2), and a script may wait and try again.
 */
export const EXIT_DRIVEN_ELSEWHERE = 75;

/** Runs read per query while listing: the route's default page. */
const LIST_PAGE = 100;

/**
 * Every run the read model lists, newest first, a page at a time after the key of the last one printed
 * (the keyset `next` of GET /v1/sync/runs): runs starting meanwhile come before the first page, so none
 * is skipped or repeated, and a printed run that leaves the read model before the next page is read (a
 * rebuild's switch) does not end the listing there.
 */
async function* allRuns(pool: Pool, status: ListedStatus | undefined): AsyncGenerator<RunView> {
  let after: RunKey | undefined;
  for (;;) {
    const page = await listRuns(pool, { status, limit: LIST_PAGE, after });
    yield* page;
    if (page.length < LIST_PAGE) return;
    after = runKeyOf(page.at(-1)!);
  }
}

const runsCounted = (count: number) => `${count} import run${count === 1 ? '' : 's'}`;

const cliMetadata = () => ({
  correlationId: `cli-${process.pid}`,
  causationId: `cli-${process.pid}`,
  actor: { role: 'sync', tokenId: 'cli' },
});

function report(context: CliContext, run: ImportRunState): void {
  println(context.stdout, JSON.stringify(toRunView(run)));
  println(context.stderr, runStatusLine(run));
  if (run.status !== 'completed') context.exitCode = EXIT_CHECK_FAILED;
}

/** Says who drives the run (as its lock session tells) and that nothing was done here; exit EXIT_DRIVEN_ELSEWHERE. */
function reportDrivenElsewhere(context: CliContext, run: ImportRunState, holder: RunHolder | undefined): void {
  println(context.stdout, JSON.stringify(toRunView(run)));
  const by = holder ? `by ${holder.by} since ${holder.since.toISOString()}` : 'by another process';
  println(
    context.stderr,
    `${run.runId} is being driven ${by}: left to it, nothing driven or written here; it goes on there (\`idem sync status ${run.runId} --follow\` shows it)`,
  );
  context.exitCode = EXIT_DRIVEN_ELSEWHERE;
}

/**
 * Drives a pull run here, under a bar whose label says what the command does (see run-progress.ts).
 * `held`: the run's lock, taken before the run was started (`sync run`), so no worker's sweep takes it first.
 */
async function drive(context: CliContext, runId: string, label: string, held?: HeldRun): Promise<void> {
  const { store, pool } = await context.runtime();
  const bar = new RunProgressBar(context.stderr, label, 'pages');
  const sources = configuredContactSources(context.config());
  const locks = runLocksOn(pool);
  // The lock taken before the run was started goes to the first attempt (which releases it when it ends).
  let first = held;
  const attempt = () => {
    const handed = first;
    first = undefined;
    return driveRun(
      {
        store,
        sources,
        locks: handed ? { ...locks, take: async (id) => (id === runId ? handed : locks.take(id)) } : locks,
        metadata: cliMetadata(),
        signal: context.interrupted,
        onPage: (r) => bar.update(r.processed, r.processed, r),
      },
      runId,
    );
  };
  let run: ImportRunState | undefined;
  try {
    // An error that may pass (PostgreSQL or the event store stalled, restarted, dropped connections) is
    // waited out as background drivers wait it out (run-drivers.ts), from the last recorded page: the
    // command used to exit 2 with the run left `running` until a worker's sweep took it over. So is the
    // end of the run's lock session (the driver stops, the run still running, and no one else holds it):
    // the command ended there with exit code 1. Taken by another process meanwhile, the run is left to it.
    for (let failures = 0; run === undefined; failures++) {
      const before = knownRun(store, runId)?.revision ?? -1;
      let stopped: { why: string; error?: string };
      try {
        const driven = await attempt();
        // Ended, interrupted, or no pull run to drive (its stream gone): nothing to drive again.
        if (driven.status !== 'running' || !driven.exists || driven.kind !== 'pull' || context.interrupted?.aborted) {
          run = driven;
          break;
        }
        stopped = { why: 'stopped: this command no longer holds the run (its lock session ended)' };
      } catch (error) {
        if (error instanceof RunDrivenElsewhere) {
          bar.stop();
          return reportDrivenElsewhere(context, await loadRun(store, runId), error.holder);
        }
        if (isPermanent(error) || context.interrupted?.aborted) throw error;
        stopped = { why: 'stopped on an error', error: (error as Error).message };
      }
      if ((knownRun(store, runId)?.revision ?? -1) > before) failures = 0;
      const delay = retryDelay(failures);
      const error = stopped.error === undefined ? '' : `: ${stopped.error}`;
      println(context.stderr, `${runId} ${stopped.why}; driving it again in ${delay} ms (Ctrl+C leaves it running for a worker)${error}`);
      await sleep(delay, undefined, { signal: context.interrupted }).catch(() => undefined);
      if (context.interrupted?.aborted) run = await loadRun(store, runId);
    }
  } finally {
    bar.stop();
  }
  report(context, run);
}
export async function syncImport(context: CliContext, file: string, options: { source: string }): Promise<void> {
  assertKnownSource(options.source);
  const { store } = await context.runtime();
  // The file import's parsing and validation (csv-parse, class-validator) only for this command.
  const { importFile } = await import('../import-file/import-file');
  const bar = new RunProgressBar(context.stderr, importLabel(file), 'bytes');
  let run: ImportRunState;
  try {
    run = await importFile({
      store,
      source: options.source,
      path: file,
      metadata: cliMetadata(),
      signal: context.interrupted,
      onProgress: (p) => bar.update(p.bytes, p.totalBytes, p.run),
    });
  } catch (error) {
    throw unreadableFile(file, error);
  } finally {
    bar.stop();
  }
  report(context, run);
}

export async function syncRun(context: CliContext, options: { source: string; since?: string; wait: boolean }): Promise<void> {
  const sources = configuredContactSources(context.config());
  assertPullableSource(options.source, sources);
  const { store, pool } = await context.runtime();
  // Followed here: the new run's lock is taken before the run exists, so a worker's sweep (which
  // drives any running run whose lock is free) cannot take it between its start and this driver.
  const newRunId = `run.${randomUUID()}`;
  const held = options.wait ? await runLocksOn(pool).take(newRunId) : undefined;
  let runId: string;
  try {
    runId = await startPullRun(
      store,
      sources,
      { source: options.source, startedBy: 'sync', ...(options.since ? { since: options.since } : {}) },
      cliMetadata(),
      newRunId,
    );
  } catch (error) {
    await held?.release();
    throw error;
  }
  println(context.stderr, `started ${runId}`);
  if (options.wait) await drive(context, runId, pullLabel({ runId, source: options.source }), held);
  else println(context.stdout, JSON.stringify(toRunView(await loadRun(store, runId))));
}

export async function syncStatus(context: CliContext, runId: string, options: { follow?: boolean }): Promise<void> {
  const { store } = await context.runtime();
  // Loaded from its last page's totals (run-folds.ts), not folded record by record.
  let run = await loadRun(store, runId);
  if (!run.exists) throw new Error(`no import run ${runId}`);
  const bar = new RunProgressBar(context.stderr, watchLabel(run), 'pages');
  while (options.follow && run.status === 'running' && !context.interrupted?.aborted) {
    bar.update(run.processed, run.processed, run);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    run = await loadRun(store, runId);
  }
  bar.stop();
  println(context.stdout, JSON.stringify(toRunView(run), null, 2));
}

export async function syncList(context: CliContext, options: { status?: ListedStatus; limit?: number }): Promise<void> {
  const { pool } = await context.runtime();
  let shown = 0;
  let more = false;
  for await (const view of allRuns(pool, options.status)) {
    if (shown === options.limit) {
      more = true;
      break;
    }
    println(context.stdout, runListLine(view));
    shown++;
  }
  // On stderr, so stdout stays one run a line.
  println(context.stderr, more ? `${runsCounted(shown)}, the newest (--limit ${shown}); there are more` : runsCounted(shown));
}

export async function syncResume(context: CliContext, runId: string, options: { sourceMoved?: boolean }): Promise<void> {
  const { store, pool } = await context.runtime();
  const run = await loadRun(store, runId);
  if (run.exists && run.kind === 'file') throw new Error(fileRunNotResumed(run));
  // A push batch is a request: nothing drives it but a retry of that request. "Resumed", a failed
  // batch was put back to running with nothing to drive it, until the abandoned-push sweep failed it again.
  if (run.exists && run.kind === 'push')
    throw new Error(
      `${runId} is a pushed batch (POST /v1/contacts/import), which no driver can go on with: send the batch again (with its Idempotency-Key, if it had one); \`idem sync status ${runId}\` shows what it recorded`,
    );
  if (run.status === 'completed') {
    // Nothing is driven: without this line, the report alone read as if the resume had finished it.
    println(context.stderr, `${runId} was already completed: nothing to resume`);
    return report(context, run);
  }
  // A run started against another CRM than this command's is not resumed here: nothing is written,
  // and the reason says which CRM to point IDEM_CRM_URL at (the run is left as it was).
  const configured = configuredContactSources(context.config())(run.source);
  const moved = run.exists && configured ? sourceMovedReason(run, configured) : undefined;
  // --source-moved: the operator says the run's CRM is the one configured here, at its new address.
  const adopted = moved && options.sourceMoved ? configured?.identity : undefined;
  if (moved && adopted === undefined) throw new Error(`${runId} is not resumed here: ${moved}`);
  // Driven by another live process (its lock is held): left to it, even with --source-moved.
  const holder = run.status === 'running' ? await runLocksOn(pool).holder(runId) : undefined;
  if (holder) return reportDrivenElsewhere(context, run, holder);
  await resumeRun(store, runId, 'cli', cliMetadata(), adopted);
  await drive(context, runId, resumeLabel(run));
}
