#!/usr/bin/env node
/**
 * `idem`, the admin command line (`bin` entry; `npm run cli -- <command>` from a checkout).
 *
 * Command groups are `CliCommand`s: the kernel's own (`projections`, src/cli/) and each feature's
 * (`recover`, `retention`, `sync`…, beside their use cases), which come with the feature's descriptor
 * from idemFeatures() (src/app.module.ts). Configuration comes from loadConfig() like the api and worker (DATABASE_URL,
 * EVENT_STORE, …). Without DATABASE_URL it opens the embedded cluster's data directory, which works
 * only while no Idem process is using it; with a running instance, set DATABASE_URL to it (the start
 * banner shows the port).
 */
import 'reflect-metadata';
import { Command, CommanderError, Help, type Option } from 'commander';
import { idemFeatures } from './app.module';
import type { Runtime } from './bootstrap/runtime';
import { EXIT_ERROR, type CliCommand, type CliContext, type CliRuntime } from './cli/cli-context';
import { watchInterrupts } from './cli/interrupts';
import { sendLogsToStderr } from './cli/logs-to-stderr';
import { openCliRuntime } from './cli/open-runtime';
import { packageVersion } from './cli/package-version';
import { projectionsCommand } from './cli/projections.command';
import { loadConfig, type IdemConfig } from './config/config';
import { applyLogLevel } from './bootstrap/log-levels';
import { reactorsOf, readModelsOf } from './features/feature';

const FEATURES = idemFeatures();
const COMMANDS: CliCommand[] = [projectionsCommand, ...FEATURES.flatMap((feature) => feature.commands ?? [])];

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

async function main(): Promise<void> {
  sendLogsToStderr();
  let config: IdemConfig | undefined;
  // Read once a command needs it (`idem --help` works anywhere); the log level applies from then on.
  const configured = (): IdemConfig => {
    if (config) return config;
    config = loadConfig();
    applyLogLevel(config.logLevel);
    return config;
  };
  let opened: Promise<Runtime> | undefined;
  const open = () => openCliRuntime(configured(), FEATURES);
  // One handler for Ctrl+C: the command stops at its next safe point, then the database closes.
  const interrupts = watchInterrupts((code) => process.exit(code));
  const context: CliContext = {
    interrupted: interrupts.signal,
    readModels: readModelsOf(FEATURES),
    // A getter: which reactors run depends on the configuration, read only once a command needs it.
    get reactors() {
      return reactorsOf(FEATURES, configured());
    },
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
