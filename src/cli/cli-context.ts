/**
 * What every `idem` command receives: the projection catalogue and lazily opened infrastructure
 * (nothing connects until a command needs it, so `idem --help` works anywhere). src/cli.ts builds
 * the real one; tests build their own.
 */
import type { Command } from 'commander';
import type { Pool } from 'pg';
import type { IdemConfig } from '../config/config';
import type { EventStore } from '../event-store/event-store.port';
import type { Projection } from '../subscriptions/projection';
import type { AnyReadModel } from '../subscriptions/read-models/read-model';

export interface CliRuntime {
  pool: Pool;
  store: EventStore;
  databaseUrl: string;
}

export interface CliContext {
  readModels: AnyReadModel[];
  reactors: Projection[];
  /** The validated configuration (read once, on first use). */
  config(): IdemConfig;
  /** Opens the configured database and event store once; the entry point closes them on exit. */
  runtime(): Promise<CliRuntime>;
  stdout: NodeJS.WritableStream;
  /** Progress and diagnostics, so stdout stays parseable. */
  stderr: NodeJS.WritableStream;
  /**
   * Aborted by the first Ctrl+C (src/cli/interrupts.ts): long commands stop at their next safe point
   * and return; the entry point closes the database after that. Unset in tests that do not need it.
   */
  interrupted?: AbortSignal;
  /** Run before a command's action (never for help, --version or a usage error): src/cli.ts sets up logging there. */
  beforeCommand?(): Promise<void>;
  /** Set by a command to report failure (e.g. drift found by verify) without throwing. */
  exitCode: number;
}

/** One command group, e.g. `idem projections …`: the kernel's in src/cli/<name>.command.ts, a feature's beside its use case. */
export type CliCommand = (context: CliContext) => Command;

/**
 * Where a command reaches the provider: STRIPE_API_BASE; else, where the service runs a sandbox (in
 * development), the sandbox of an `npm start` on this machine (IDEM_SANDBOX_PORT); else undefined,
 * which the Stripe SDK takes as api.stripe.com. Production runs no sandbox: a live key must never be
 * sent to whatever listens on a local port.
 */
export const providerUrl = (config: IdemConfig): string | undefined =>
  config.payments.stripeApiBase ?? (config.sandbox.enabled ? `http://127.0.0.1:${config.sandbox.port}` : undefined);

/** Exit codes: 0 fine, 1 the command's check failed (drift), 2 it could not run. */
export const EXIT_CHECK_FAILED = 1;
export const EXIT_ERROR = 2;

export function println(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${line}\n`);
}
