/**
 * `idem audit export <file>`: the export written to a new file (never over an existing one). A failed
 * or interrupted export removes what it wrote, so the same command can simply be run again. An export
 * that holds fewer events than the chain (events gone from the store), or whose lines do not verify (an
 * event changed after it was chained), is kept for inspection, but its digest is not one to keep: the
 * command exits 1.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { EXIT_CHECK_FAILED, println, type CliContext } from '../../../src/cli/cli-context';
import { unwritableFile } from '../../../src/cli/unreadable-file';
import { exportHistory } from './export-history';
import { ExportProgressBar } from './export-progress';

export async function exportToFile(context: CliContext, file: string): Promise<void> {
  const { store, pool } = await context.runtime();
  const out = createWriteStream(file, { flags: 'wx' });
  // The stream's errors reach the export through its writes (export-history.ts) and `finished`. Without a
  // listener, an error emitted after the catch below had destroyed the stream — the write still in flight
  // when Ctrl+C stopped the export — crashed the process before the partial file was removed.
  out.on('error', () => undefined);
  // Only a file this export created is ours to remove ('wx' refuses an existing one before that).
  let created = false;
  out.once('open', () => (created = true));
  const bar = new ExportProgressBar(context.stderr);
  try {
    const summary = await exportHistory({ store, pool }, out, (written, total) => bar.update(written, total), context.interrupted);
    out.end();
    await finished(out);
    bar.stop();
    println(context.stdout, JSON.stringify({ file, ...summary }));
    if (summary.events < summary.chained) {
      println(
        context.stderr,
        `the store holds only ${summary.events} of the ${summary.chained} chained events: this export is cut short and its digest` +
          ' is not one to keep; run `idem audit verify` to find the first break',
      );
      context.exitCode = EXIT_CHECK_FAILED;
      return;
    }
    if (summary.firstBreak) {
      const { kind, stream, revision, detail } = summary.firstBreak;
      println(
        context.stderr,
        `this export does not verify (${kind} at ${stream ?? 'the file'}${revision === null ? '' : `@${revision}`}: ${detail}): it is` +
          ' kept for inspection, but its digest is not one to keep; run `idem audit verify` to see the break in the store',
      );
      context.exitCode = EXIT_CHECK_FAILED;
      return;
    }
    println(context.stderr, `keep this digest apart from the database; a later verify-file of this file must print it: ${summary.digest}`);
  } catch (error) {
    bar.stop();
    out.destroy();
    // Closed before it is removed: a write still in flight must not land after the removal.
    await finished(out).catch(() => undefined);
    if (created) await rm(file, { force: true });
    throw (error as NodeJS.ErrnoException).code === 'EEXIST' ? new ExportFileExists(file) : unwritableFile(file, error);
  }
}

/** A usage error (exit code 2): an earlier export, kept for its digest, must stay as it was written. */
class ExportFileExists extends Error {
  constructor(file: string) {
    super(
      `${file} already exists, and idem audit export never writes over a file (an earlier export must stay as it was): give a path that does not exist yet`,
    );
    this.name = 'ExportFileExists';
  }
}
