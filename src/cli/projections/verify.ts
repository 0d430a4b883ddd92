/** `idem projections verify [<name…>]`: every difference between the read models and a fold of the log. */
import { describeCheckpoint } from '../../event-store/checkpoint';
import type { RowDifference, VerifyReport } from '../../subscriptions/read-models/verify';
import { verifyReadModel } from '../../subscriptions/read-models/verify';
import { EXIT_CHECK_FAILED, println, type CliContext } from '../cli-context';
import { counted } from '../../text/counted';
import { selectReadModels } from './select-read-models';

export async function projectionsVerify(
  context: CliContext,
  names: string[],
  options: { version?: number; json?: boolean },
): Promise<void> {
  const { pool, store } = await context.runtime();
  const models = selectReadModels(context.readModels, names);
  if (options.version !== undefined && models.length !== 1) throw new Error('--version needs exactly one read model name');
  const reports = [];
  for (const model of models) {
    const report = await verifyReadModel(store, pool, model, options.version);
    reports.push(report);
    if (report.differences.length) context.exitCode = EXIT_CHECK_FAILED;
    if (options.json) continue;
    println(context.stdout, verifyLine(report));
    for (const difference of report.differences) println(context.stdout, `  ${describe(difference)}`);
  }
  if (options.json) println(context.stdout, JSON.stringify(reports, null, 2));
}

/** "orders@2: 1 row stored, 2 expected from the log (checkpoint: …): 1 difference". */
export function verifyLine(
  report: Pick<VerifyReport, 'name' | 'version' | 'rowsStored' | 'rowsExpected' | 'checkpoint' | 'differences'>,
): string {
  const verdict = report.differences.length ? counted(report.differences.length, 'difference') : 'no differences';
  const checkpoint = report.checkpoint ? describeCheckpoint(report.checkpoint) : 'start';
  return `${report.name}@${report.version}: ${counted(report.rowsStored, 'row')} stored, ${report.rowsExpected} expected from the log (checkpoint: ${checkpoint}): ${verdict}`;
}

function describe(difference: RowDifference): string {
  switch (difference.kind) {
    case 'missing':
      return `${difference.key} missing: the log has this row, the table does not`;
    case 'unexpected':
      return `${difference.key} unexpected: the table has this row, the log does not`;
    default:
      return `${difference.key} ${difference.columns!.map((c) => `${c.column}: expected ${JSON.stringify(c.expected)}, stored ${JSON.stringify(c.actual)}`).join('; ')}`;
  }
}
