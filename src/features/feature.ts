/**
 * What one feature (modules/<feature>: payments, contacts, support…) adds to Idem, as one value its
 * index.ts exports. The kernel knows no feature by name: the composition roots hand it the list
 * (src/app.module.ts names it; main.ts, worker.ts and cli.ts take it from there), and the kernel uses
 * each field at its moment in a process's life:
 *
 * 1. Every process (api, worker, CLI), first: the kernel's read-model migrations, then each feature's
 *    `migrate`, before anything reads or writes the feature's tables.
 * 2. api and worker: version 1 of every `readModels` entry is installed (so the api can serve before
 *    the first worker ever ran) and TypeORM learns their entities.
 * 3. api: `module` is imported into the Nest application — its routes and the providers they need.
 * 4. worker: `readModels` and `reactors` run in the projection runner, in the feature's
 *    `projectionLane` (or their own, `projectionLanes`); `tasks` join the job queue; each of `schedules` adds its job every interval;
 *    then `services` start.
 * 5. CLI: not the feature but its CliFeature (`modules/<feature>/<feature>.cli.ts`, named in src/cli.ts):
 *    its command groups become `idem` command groups, after the kernel's own (`projections`), and its
 *    FeatureCore (read models, reactors, migrations) is loaded only once a command opens the database.
 *    `idem` never loads a feature's Nest module, tasks or services: a command started in seconds.
 * 6. Stop (worker): schedules end, services stop, then running jobs finish, then projections stop.
 */
import type { DynamicModule, Type } from '@nestjs/common';
import type { TaskList } from 'graphile-worker';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { CliCommand } from '../cli/cli-context';
import type { IdemConfig } from '../config/config';
import type { EventStore } from '../event-store/event-store.port';
import type { Projection } from '../subscriptions/projection';
import type { AnyReadModel } from '../subscriptions/read-models/read-model';

export interface Feature {
  /** Short name for logs and errors, e.g. `payments`. */
  name: string;
  /** The feature's Nest module: its controllers and the providers they inject. */
  module?: Type<unknown> | DynamicModule;
  /** Read models the feature owns (projectors in projections/<name>/); their entities serve TypeORM. */
  readModels?: AnyReadModel[];
  /**
   * Projections that act instead of keeping rows, e.g. enqueueing a job in their checkpoint's
   * transaction; a function when what they do depends on the configuration.
   */
  reactors?: Projection[] | ((config: IdemConfig) => Projection[]);
  /**
   * The lane the feature's read models and reactors ride once live; none: the default lane, shared by
   * every feature that names none. A lane shares one read of the log and its members wait for each
   * other: its next read goes out only once every member committed the last one. Other lanes' members
   * do not wait for them, so work that must stay prompt (payments: a reactor queues each charge's job)
   * gets a lane of its own, away from members a bulk import keeps busy for minutes (contacts, the audit
   * chain). Lanes share the process's one read of the log (src/subscriptions/log-fan-out.ts); a lane
   * costs its own batch transactions, and a read of its own only while it is far behind the others.
   */
  projectionLane?: string;
  /**
   * Lanes for some of the feature's projections, by projection name, instead of `projectionLane`: a
   * read model that readers wait for after a command (contacts, after a push) gets a lane of its own
   * when the feature's other members (import_events, and the audit chain beside them) are slower to
   * commit, so it is not held back by them.
   */
  projectionLanes?: Readonly<Record<string, string>>;
  /** Job handlers by task name, built once per worker from what the worker holds. */
  tasks?(worker: WorkerContext): TaskList;
  /** Tasks to run again and again, however many worker processes there are. */
  schedules?: JobSchedule[];
  /** Long-running work a worker starts after its jobs (e.g. resuming unfinished import runs). */
  services?: Array<(worker: WorkerContext) => Promise<RunningService>>;
  /** Lines of the `npm start` banner that say where the feature's own pages are, given the api's URL. */
  bannerLines?(apiUrl: string): string[];
  /**
   * What an `idem` command run against this instance needs set besides DATABASE_URL, e.g. the
   * address of a service the feature reaches: from the configuration this process runs with (an
   * in-process sandbox's real address included), which a CLI started elsewhere cannot know. The
   * banner prints it beside DATABASE_URL.
   */
  cliEnvironment?(config: IdemConfig): Record<string, string>;
  /** Creates or upgrades the feature's own tables; must be safe with several processes starting at once. */
  migrate?(pool: Pool): Promise<void>;
}

/** What a worker process holds, for the feature's tasks and services. */
export interface WorkerContext {
  config: IdemConfig;
  store: EventStore;
  pool: Pool;
  /** Identifies this worker in events it causes and in logs. */
  workerId: string;
  /** The read models' TypeORM data source (queries of the features' read models). */
  readModels: DataSource;
}

/** Adds `task` to the queue every `intervalMs(config)`; a run still pending is not doubled. */
export interface JobSchedule {
  task: string;
  intervalMs(config: IdemConfig): number;
}

export interface RunningService {
  /** Ends the service's work in flight; the worker stops its jobs only after this resolves. */
  stop(): Promise<void>;
}

/**
 * What every process takes of a feature — the api, the worker and the CLI alike: its name, tables and
 * projections. A feature keeps it in `<feature>.core.ts`, importing none of its routes or tasks, and
 * spreads it into its Feature.
 */
export type FeatureCore = Pick<Feature, 'name' | 'readModels' | 'reactors' | 'migrate'>;

/**
 * A feature as `idem` sees it (`<feature>.cli.ts`): its command groups, loaded with the CLI (their files
 * import what a command runs only when it runs), and its core, loaded once a command opens the database.
 */
export interface CliFeature {
  commands: CliCommand[];
  core(): Promise<FeatureCore>;
}

export const readModelsOf = (features: readonly Pick<Feature, 'readModels'>[]): AnyReadModel[] =>
  features.flatMap((feature) => feature.readModels ?? []);

export const reactorsOf = (features: readonly Pick<Feature, 'reactors'>[], config: IdemConfig): Projection[] =>
  features.flatMap(({ reactors = [] }) => (typeof reactors === 'function' ? reactors(config) : reactors));

/**
 * The lane of each read model and reactor whose feature names one, by projection name: its own
 * (`projectionLanes`), else its feature's (`projectionLane`). A lane named for a projection the feature
 * does not have is a wiring mistake, refused rather than silently ignored.
 */
export function projectionLanesOf(features: readonly Feature[], config: IdemConfig): Map<string, string> {
  const lanes = new Map<string, string>();
  for (const feature of features) {
    const own = feature.projectionLanes ?? {};
    const names = [...readModelsOf([feature]), ...reactorsOf([feature], config)].map(({ name }) => name);
    const unknown = Object.keys(own).filter((name) => !names.includes(name));
    if (unknown.length) throw new Error(`${feature.name} names a lane for ${unknown.join(', ')}, which it has no projection of`);
    for (const name of names) {
      const lane = own[name] ?? feature.projectionLane;
      if (lane !== undefined) lanes.set(name, lane);
    }
  }
  return lanes;
}

/** Every feature's job handlers in one list; two features claiming one task name is a wiring mistake. */
export function taskListOf(features: readonly Feature[], worker: WorkerContext): TaskList {
  const taskList: TaskList = {};
  for (const feature of features) {
    for (const [task, handler] of Object.entries(feature.tasks?.(worker) ?? {})) {
      if (task in taskList) throw new Error(`job task ${task} is claimed twice (again by ${feature.name})`);
      taskList[task] = handler;
    }
  }
  return taskList;
}

/** Each feature's own migrations, in the order of the list (the kernel's own run before them). */
export async function migrateFeatures(pool: Pool, features: readonly Pick<Feature, 'migrate'>[]): Promise<void> {
  for (const feature of features) await feature.migrate?.(pool);
}
