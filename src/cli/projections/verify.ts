/** `idem projections verify [<name…>]`: every difference between the read models and a fold of the log. */
import { describeCheckpoint } from '../../event-store/checkpoint';
import type { RowDifference } from '../../subscriptions/read-models/verify';
import { verifyReadModel } from '../../subscriptions/read-models/verify';
import { EXIT_CHECK_FAILED, println, type CliContext } from '../cli-context';
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
    const verdict = report.differences.length ? `${report.differences.length} difference(s)` : 'no differences';
    println(
      context.stdout,
      `${report.name}@${report.version}: ${report.rowsStored} rows stored, ${report.rowsExpected} expected from the log (checkpoint: ${report.checkpoint ? describeCheckpoint(report.checkpoint) : 'start'}): ${verdict}`,
    );
    for (const difference of report.differences) println(context.stdout, `  ${describe(difference)}`);
  }
  if (options.json) println(context.stdout, JSON.stringify(reports, null, 2));
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
