/**
 * LOG_LEVEL for every line a process logs. The service logs through Nest's logger (the features', the
 * projection runners', and graphile-worker's lines, background.ts), whose levels are process-wide; the
 * entry points set them from the configuration before anything logs. Until they did, LOG_LEVEL only
 * filtered graphile-worker's lines: `LOG_LEVEL=error` still printed every projection start and recovery
 * line, and `debug` never showed a debug line.
 */
import { Logger, type LogLevel } from '@nestjs/common';
import type { IdemConfig } from '../config/config';

const LEVELS: Record<IdemConfig['logLevel'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** Nest's levels for a LOG_LEVEL: that level and every one more severe. */
export const nestLogLevels = (level: IdemConfig['logLevel']): LogLevel[] => LEVELS[level];

/** Applies LOG_LEVEL to every Nest logger of this process, those created before it included. */
export function applyLogLevel(level: IdemConfig['logLevel']): void {
  Logger.overrideLogger(nestLogLevels(level));
}
