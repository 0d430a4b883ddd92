#!/usr/bin/env node
/**
 * `idem`, the admin command line (`bin` entry; `npm run cli -- <command>` from a checkout).
 *
 * Command groups are `CliCommand`s: the kernel's own (`projections`, src/cli/) and each feature's
 * (`recover`, `retention`, `sync`…, beside their use cases), from the features' CliFeatures below (the
 * same features, in the same order, as idemFeatures() in src/app.module.ts). Configuration comes from
 * loadConfig() like the api and worker (DATABASE_URL, EVENT_STORE, …). Without DATABASE_URL it opens the
 * embedded cluster's data directory, which works only while no Idem process is using it; with a running
 * instance, set DATABASE_URL to it (the start banner shows the port).
 *
 * It loads only what the command line uses: the command groups (commander and their definitions) at
 * once, Nest's logger once a command runs, the features' cores (read models: TypeORM) and the database
 * once it opens the runtime, and what each command does when it does it (`import()` in its action).
 * It used to load the whole service first — every feature's Nest module, routes, tasks, the Stripe SDK,
 * the EventStoreDB client: about 1,900 modules and 1.5 s of CPU before `idem --help` printed a line.
 */
import 'reflect-metadata';
import { Command, CommanderError, Help, type Option } from 'commander';
import type { Runtime } from './bootstrap/runtime';
import { EXIT_ERROR, type CliCommand, type CliContext, type CliRuntime } from './cli/cli-context';
import { watchInterrupts } from './cli/interrupts';
import { packageVersion } from './cli/package-version';
import { projectionsCommand } from './cli/projections.command';
import { loadConfig, type IdemConfig } from './config/config';
import { reactorsOf, readModelsOf, type CliFeature, type FeatureCore } from './features/feature';
import { paymentsCli } from '../modules/payments/payments.cli';
import { contactsCli } from '../modules/contacts/contacts.cli';
import { supportCli } from '../modules/support/support.cli';
import { auditCli } from '../modules/audit/audit.cli';

/** Idem's features as `idem` takes them: the order of idemFeatures() (src/app.module.ts), which src/cli/cli-features.unit.spec.ts checks. */
export const CLI_FEATURES: CliFeature[] = [paymentsCli, contactsCli, supportCli, auditCli];
const COMMANDS: CliCommand[] = [projectionsCommand, ...CLI_FEATURES.flatMap((feature) => feature.commands)];

export function buildCli(context: CliContext): Command {
  const groups = COMMANDS.map((command) => command(context));
  const program = new Command('idem')
    // Named from the groups themselves, so a feature's new group cannot be left out of the summary.
    .description(`Idem: operate the ledger (${groups.map((group) => group.name()).join(', ')})`)
    .version(packageVersion(), '-V, --version', 'print the version of Idem')
    // Only before a command: `projections verify --version <n>` is verify's own option, not this one.
    .enablePositionalOptions();
  for (const group of groups) program.addCommand(group);
  // Commander exits the process on usage errors; report them as exit code 2 instead, to every level.
  const configure = (command: Command) => {
    command.exitOverride().configureOutput({ writeOut: (s) => context.stdout.write(s), writeErr: (s) => context.stderr.write(s) });
    command.configureHelp({ optionDescription: describeOption });
    command.commands.forEach(configure);
  };
  configure(program);
  // Before a command's action only: help, --version and usage errors need none of it.
  if (context.beforeCommand) program.hook('preAction', context.beforeCommand);
  return program;
}

/** Commander's description of an option, marked "(required)" for a requiredOption (commander's help does not say so). */
function describeOption(this: Help, option: Option): string {
  const description = Help.prototype.optionDescription.call(this, option);
  return option.mandatory ? `${description} (required)` : description;
}

/** Runs one command line (without `node idem`); resolves with the process exit code. */
export async function runCli(args: string[], context: CliContext): Promise<number> {
  try {
    await buildCli(context).parseAsync(args, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_ERROR;
    context.stderr.write(`idem: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_ERROR;
  }
}

/** Loads the features' cores (their read models: TypeORM), for a command that opens the runtime. */
async function loadCores(): Promise<FeatureCore[]> {
  return Promise.all(CLI_FEATURES.map((feature) => feature.core()));
}

async function main(): Promise<void> {
  // Nest's logger (@nestjs/common, rxjs) for the lines of a command that runs: set up before its action.
  let logLevels: typeof import('./bootstrap/log-levels') | undefined;
  const beforeCommand = async () => {
    const [logs, levels] = await Promise.all([import('./cli/logs-to-stderr'), import('./bootstrap/log-levels')]);
    logs.sendLogsToStderr();
    logLevels = levels;
    if (config) levels.applyLogLevel(config.logLevel);
  };
  let config: IdemConfig | undefined;
  // Read once a command needs it (`idem --help` works anywhere); the log level applies from then on.
  const configured = (): IdemConfig => {
    if (config) return config;
    config = loadConfig();
    logLevels?.applyLogLevel(config.logLevel);
    return config;
  };
  let cores: FeatureCore[] | undefined;
  const loaded = (): FeatureCore[] => {
    // Every command asks for its runtime before its read models; one that did not would say so here.
    if (!cores) throw new Error('the read models and reactors are known once the command opened the database (context.runtime())');
    return cores;
  };
  let opened: Promise<Runtime> | undefined;
  const open = async () => {
    cores = await loadCores();
    const { openCliRuntime } = await import('./cli/open-runtime');
    return openCliRuntime(configured(), cores);
  };
  // One handler for Ctrl+C: the command stops at its next safe point, then the database closes.
  const interrupts = watchInterrupts((code) => process.exit(code));
  const context: CliContext = {
    interrupted: interrupts.signal,
    // Getters: the features' cores load with the runtime, and which reactors run depends on the configuration.
    get readModels() {
      return readModelsOf(loaded());
    },
    get reactors() {
      return reactorsOf(loaded(), configured());
    },
    beforeCommand,
    config: configured,
    stdout: process.stdout,
    stderr: process.stderr,
    exitCode: 0,
    runtime: async (): Promise<CliRuntime> => {
      const runtime = await (opened ??= open());
      return { pool: runtime.pool, store: runtime.eventStore, databaseUrl: runtime.databaseUrl };
    },
  };
  const code = await runCli(process.argv.slice(2), context);
  await opened?.then((runtime) => runtime.close()).catch(() => undefined);
  interrupts.dispose();
  process.exit(interrupts.exitCode ?? code);
}

if (require.main === module) void main();
