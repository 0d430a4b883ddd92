/**
 * Graceful shutdown and start-up failure for the entry points: the first SIGINT/SIGTERM/SIGHUP (a
 * closed terminal) runs the closers in order (requests and running jobs finish first, the database
 * last), a second one is ignored while that happens.
 */
import { ConfigError } from '../config/config-error';
import { DataDirectoryInUse } from '../database/reclaim-data-directory';
import { AddressInUse } from './listen-address';
import { NoSandboxBeside } from './sandbox-beside';
import { StoreUnreachable } from './store-unreachable';

/** The signals that stop the service gracefully. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** One part to stop, named for the log line that says it has stopped. */
export type Closer = [part: string, close: () => Promise<unknown>];

export function stopOnSignals(announce: string, closers: Closer[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: ${announce}\n`);
    let failed = false;
    for (const [part, close] of closers) {
      // Keep closing the rest (the database last) even if one part fails to stop cleanly. Each part
      // says when it has stopped: a shutdown that takes seconds (jobs finishing) shows where it is.
      const started = Date.now();
      await close().then(
        () => process.stdout.write(`stopped: ${part} (${Date.now() - started} ms)\n`),
        (error: unknown) => {
          failed = true;
          process.stderr.write(`shutdown: ${part}: ${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
    }
    process.exit(failed ? 1 : 0);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
}

/** Failures the operator fixes by a setting: their message says which, and a stack trace would bury it. */
const OPERATOR_FAILURES = [AddressInUse, DataDirectoryInUse, NoSandboxBeside, StoreUnreachable];

/** A bad configuration prints only its message, a taken address or data directory what to do; anything else its stack. */
export function exitOnStartupFailure(what: string) {
  return (error: unknown): never => {
    process.stderr.write(
      error instanceof ConfigError
        ? `${error.message}\n`
        : OPERATOR_FAILURES.some((kind) => error instanceof kind)
          ? `${what} failed to start: ${(error as Error).message}\n`
          : `${what} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  };
}
