/**
 * `idem audit verify [--stream s]`, `idem audit export <file>` and `idem audit verify-file <file>`
 * (DESIGN.md §8). verify and verify-file print the report as JSON on stdout and exit with 1 on a
 * break; verify-file opens no database, and a file it cannot read is one line and exit code 2.
 */
import { Command } from 'commander';
import { EXIT_CHECK_FAILED, println, type CliCommand, type CliContext } from '../../src/cli/cli-context';
import { unreadableFile } from '../../src/cli/unreadable-file';
import { exportToFile } from './export-history/export-to-file';
import { verifyExportFile } from './export-history/verify-file';
import type { VerifyReport } from './verify-history/chain-break';
import { verifyHistory, verifyStream } from './verify-history/verify-history';

export const auditCommand: CliCommand = (context) => {
  const audit = new Command('audit').description('the hash chain over the history: verify it, export it, verify an export offline');

  audit
    .command('verify')
    .description('recompute the hash chain and the seals from the event store; exit code 1 on the first break')
    .option('--stream <stream>', 'verify this stream only (default: the whole history, with the seals)')
    .action(async (options: { stream?: string }) => {
      const { store, pool } = await context.runtime();
      const report = options.stream
        ? await verifyStream({ store, pool }, options.stream)
        : await verifyHistory({ store, pool }, context.interrupted);
      printReport(context, report);
    });

  audit
    .command('export')
    .description(
      'write the chained history with its hashes and seals as NDJSON, which `idem audit verify-file` checks offline; ' +
        'never writes over an existing file (exit code 2), and removes what it wrote if it fails or is interrupted',
    )
    .argument('<file>', 'where to write the export: a path that does not exist yet')
    .action((file: string) => exportToFile(context, file));

  audit
    .command('verify-file')
    .description('check an export with nothing but the file; prints its final digest; exit code 1 on the first break')
    .argument('<file>', 'an NDJSON file written by `idem audit export`')
    .action(async (file: string) => {
      let report: VerifyReport;
      try {
        report = await verifyExportFile(file);
      } catch (error) {
        throw unreadableFile(file, error);
      }
      printReport(context, report);
    });

  return audit;
};

function printReport(context: CliContext, report: VerifyReport): void {
  println(context.stdout, JSON.stringify(report, null, 2));
  if (!report.ok) context.exitCode = EXIT_CHECK_FAILED;
}
