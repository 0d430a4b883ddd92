/**
 * `idem projections status`: every version of every projection — live and building ones with their
 * lag, retired ones until drop-old — and projections the code has but the database has not yet.
 */
import { describeCheckpoint } from '../../event-store/checkpoint';
import type { Checkpoint } from '../../event-store/event-store.port';
import { noticeableHold } from '../../event-store/held-back';
import { readVersions } from '../../subscriptions/checkpoint-store';
import { measureLag, type ProjectionLag } from '../../subscriptions/projection-lag';
import { readModelProjection } from '../../subscriptions/read-models/read-model.projection';
import { println, type CliContext } from '../cli-context';

interface StatusLine {
  name: string;
  kind: string;
  state: string;
  version?: number;
  checkpoint?: Checkpoint;
  eventsProcessed?: number;
  lag?: ProjectionLag;
}

export async function projectionsStatus(context: CliContext, options: { json?: boolean; maxCount?: number }): Promise<void> {
  const { pool, store } = await context.runtime();
  const projections = [...context.readModels.map(readModelProjection), ...context.reactors];
  const lags = await measureLag(store, pool, projections, { maxCount: options.maxCount ?? 1_000_000 });
  const versions = await readVersions(pool);
  const lines = projections.flatMap((projection): StatusLine[] => {
    const rows = versions.filter((v) => v.name === projection.name);
    const kind = projection.kind === 'read_model' ? 'read model' : 'reactor';
    if (!rows.length) return [{ name: projection.name, kind, state: 'not installed' }];
    return rows.map((row) => {
      const lag = lags.find((l) => l.name === row.name && l.version === row.version);
      return {
        name: row.name,
        kind,
        version: row.version,
        state: row.state,
        checkpoint: row.checkpoint,
        eventsProcessed: row.eventsProcessed,
        lag,
      };
    });
  });
  if (options.json) return println(context.stdout, JSON.stringify(lines.map(toJsonLine), null, 2));
  const header = ['PROJECTION', 'KIND', 'VERSION', 'STATE', 'CHECKPOINT', 'PROCESSED', 'LAG EVENTS', 'LAG SECONDS'];
  const rows = lines.map(({ name, kind, state, version, checkpoint, eventsProcessed, lag }) => {
    const installed = version !== undefined;
    return [
      name,
      kind,
      installed ? String(version) : '-',
      state,
      installed ? (checkpoint ? describeCheckpoint(checkpoint) : '(start)') : '-',
      installed ? String(eventsProcessed) : '-',
      lag ? `${lag.lagEventsAtLeast ? '≥' : ''}${lag.lagEvents}` : '-',
      lag ? lag.lagSeconds.toFixed(1) : '-',
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  for (const row of [header, ...rows])
    println(
      context.stdout,
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
  // A line under the table once a hold lasts (held-back.ts): the lag above may say 0 meanwhile.
  const held = await noticeableHold(store);
  if (held)
    println(
      context.stdout,
      `\nheld back: events written ${held.seconds.toFixed(1)} s ago wait for a transaction still in flight in the PostgreSQL ` +
        'cluster; no projection reads past them until it ends (README, Operations: "A transaction left open")',
    );
}

/**
 * A line of `--json`: the table's columns, with the lag's own figures beside them (it carried the whole
 * lag measurement, which repeated name, version, state and checkpoint, and spelled the kind `read_model`).
 */
function toJsonLine({ lag, ...line }: StatusLine) {
  return lag ? { ...line, lagEvents: lag.lagEvents, lagEventsAtLeast: lag.lagEventsAtLeast, lagSeconds: lag.lagSeconds } : line;
}
