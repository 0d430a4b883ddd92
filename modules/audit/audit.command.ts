/**
 * `idem audit verify [--stream s]`, `idem audit export <file>` and `idem audit verify-file <file>`
 * (DESIGN.md §8). verify and verify-file print the report as JSON on stdout and exit with 1 on a
 * break; verify-file opens no database.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { EXIT_CHECK_FAILED, println, type CliCommand, type CliContext } from '../../src/cli/cli-context';
import { exportHistory } from './export-history/export-history';
import { ExportProgressBar } from './export-history/export-progress';
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
      const report = options.stream ? await verifyStream({ store, pool }, options.stream) : await verifyHistory({ store, pool });
      printReport(context, report);
    });

  audit
    .command('export')
    .description('write the chained history with its hashes and seals as NDJSON, which `idem audit verify-file` checks offline')
    .argument('<file>', 'where to write the export')
    .action(async (file: string) => {
      const { store, pool } = await context.runtime();
      const out = createWriteStream(file, { flags: 'wx' });
      const bar = new ExportProgressBar(context.stderr);
      try {
        const summary = await exportHistory({ store, pool }, out, (written, total) => bar.update(written, total));
        out.end();
        await finished(out);
        bar.stop();
        println(context.stdout, JSON.stringify({ file, ...summary }));
        println(
          context.stderr,
          `keep this digest apart from the database; a later verify-file of this file must print it: ${summary.digest}`,
        );
      } catch (error) {
        bar.stop();
        out.destroy();
        throw error;
      }
    });

  audit
    .command('verify-file')
    .description('check an export with nothing but the file; prints its final digest; exit code 1 on the first break')
    .argument('<file>', 'an NDJSON file written by `idem audit export`')
    .action(async (file: string) => printReport(context, await verifyExportFile(file)));

  return audit;
};

function printReport(context: CliContext, report: VerifyReport): void {
  println(context.stdout, JSON.stringify(report, null, 2));
  if (!report.ok) context.exitCode = EXIT_CHECK_FAILED;
}
