/**
 * The CLI's log lines go to stderr, every level. Nest's console logger writes its `log`, `warn` and
 * `debug` lines to stdout, where they mixed with what the command prints for scripts (`recover`'s
 * result lines, `--json` reports): `idem recover --order …` at the default LOG_LEVEL=info put its
 * recovery audit line before the result. The api and worker keep Nest's streams.
 */
import { ConsoleLogger, Logger, type LogLevel } from '@nestjs/common';

class StderrConsoleLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}

/** Every Nest logger of this process (those created before included) writes to stderr from now on. */
export function sendLogsToStderr(): void {
  Logger.overrideLogger(new StderrConsoleLogger());
}
