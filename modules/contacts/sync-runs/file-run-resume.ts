/**
 * What `idem sync resume` answers for a file run, which no driver goes on with: the file is the run's
 * only source, and only `idem sync import` has it. A running one (its import was killed or stopped) goes
 * on when the same file is imported again. One stopped for review does not: importing the same bytes
 * again answers that stop again (import-file.ts), so the advice to do so sent the operator round in a
 * circle; a file so stopped is fixed and imported again, its new bytes a run of their own. A completed
 * one has nothing to go on with (refused all the same: `sync resume` is for pull runs).
 */
import type { ImportRunState } from '../import-run.state';

export function fileRunNotResumed(run: ImportRunState): string {
  const file = run.started?.file ? ` (${run.started.file})` : '';
  const importIt = `\`idem sync import <file> --source ${run.source}\``;
  if (run.status === 'running') return `${run.runId} is a file import: run ${importIt} with the same file${file} to resume it`;
  if (run.status === 'completed') return `${run.runId} is a file import, and it completed: nothing to resume`;
  return `${run.runId} is a file import that stopped ${run.status}${run.reason ? ` (${run.reason})` : ''}: importing the same file${file} again answers the same; fix the file and run ${importIt} with it (other bytes are a new run)`;
}
