/**
 * What `idem sync` tells on stderr about a run: a progress bar named for what the command does, and one
 * line on how the run stands when the command ends.
 */
import { ProgressBar } from '../../../src/cli/progress-bar';
import { counted } from '../../../src/text/counted';
import type { ImportRunState } from '../import-run.state';
import type { RunView } from '../import-run.view';

/**
 * A file import shows the bytes read of its file. A pull (started, resumed or watched) shows pages and
 * records so far, without a percentage: its source does not say how many records it holds, and a bar
 * over the records seen so far stood at 100 % all along.
 */
const FORMATS = {
  bytes: '{label} [{bar}] {percentage}% | {done}/{of} bytes | {records}: {counts}',
  pages: '{label} | {pages} | {records}: {counts}',
} as const;

export class RunProgressBar {
  private readonly bar: ProgressBar;

  /** `label` says what the command does: see the *Label functions below. */
  constructor(
    stream: NodeJS.WritableStream,
    private readonly label: string,
    unit: keyof typeof FORMATS,
  ) {
    this.bar = new ProgressBar(stream, FORMATS[unit]);
  }

  /** `value` and `total` are bytes of a file import; a pull passes its records for both. */
  update(value: number, total: number, run: ImportRunState): void {
    // The label goes in as a value, not into the format: a file name may hold `{…}`.
    this.bar.show(value, total, {
      label: this.label,
      pages: counted(run.pages, 'page'),
      records: counted(run.processed, 'record'),
      counts: outcomeCounts(run) || 'none yet',
    });
  }

  stop(): void {
    this.bar.stop();
  }
}

export const importLabel = (file: string) => `import ${file}`;
export const pullLabel = (run: Pick<ImportRunState, 'runId' | 'source'>) => `pull ${run.runId} from ${run.source}`;
export const resumeLabel = (run: Pick<ImportRunState, 'runId' | 'source'>) => `resume of ${run.runId} (pull from ${run.source})`;
export const watchLabel = (run: Pick<ImportRunState, 'runId' | 'source' | 'kind'>) =>
  `watch ${run.runId} (${run.kind === 'file' ? 'import' : 'pull'} from ${run.source})`;

/**
 * How a run stands, in one line: `run.1: completed: 600 records (imported 600)`. Only a live run is
 * "so far"; a finished one with no records says so plainly (it read "completed after 0 records (none
 * yet)", as if records were still to come).
 */
export function runStatusLine(run: ImportRunState): string {
  const records = counted(run.processed, 'record');
  const counts = outcomeCounts(run);
  const tally = run.status === 'running' ? (run.processed ? `${records} so far (${counts})` : 'no records yet') : records;
  const detail = run.status !== 'running' && counts ? ` (${counts})` : '';
  return `${run.runId}: ${run.status}: ${tally}${detail}${run.reason ? ` — ${run.reason}` : ''}`;
}

/**
 * `idem sync list`'s line for a run (stdout, one run a line): id, kind, status, records, its source (with the
 * CRM a pull run is tied to), stop reason. A run of one record is "1 record" (it read "1 records").
 */
export const runListLine = (view: RunView): string =>
  `${view.runId}  ${view.kind}  ${view.status}  ${counted(view.processed, 'record')}  ${sourceText(view)}  ${view.reason ?? ''}`.trimEnd();

const sourceText = (view: RunView) => (view.sourceIdentity === null ? view.source : `${view.source} at ${view.sourceIdentity}`);

/** `imported 5, updated 2`, or '' when no record was processed. */
const outcomeCounts = (run: ImportRunState) =>
  Object.entries(run.counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ');
