/** `idem projections rebuild <name…>`: blue/green rebuild with a progress bar (see rebuild.ts). */
import { readVersions } from '../../subscriptions/checkpoint-store';
import { rebuildReadModels } from '../../subscriptions/read-models/rebuild';
import type { SwitchResult } from '../../subscriptions/read-models/switch-readers';
import { installReadModels } from '../../subscriptions/read-models/versions';
import { println, type CliContext } from '../cli-context';
import { counted } from '../../text/counted';
import { RebuildProgressBar } from './rebuild-progress';
import { selectReadModels } from './select-read-models';

export async function projectionsRebuild(context: CliContext, names: string[], options: { batchSize?: number }): Promise<void> {
  const { pool, store } = await context.runtime();
  const models = selectReadModels(context.readModels, names);
  await installReadModels(pool, models);
  const liveEvents = async () => {
    const versions = await readVersions(pool);
    return models.reduce((sum, m) => sum + (versions.find((v) => v.name === m.name && v.state === 'live')?.eventsProcessed ?? 0), 0);
  };
  const bar = new RebuildProgressBar(context.stderr);
  const estimate = await liveEvents();
  const refresh = setInterval(
    () =>
      void liveEvents().then(
        (total) => bar.setEstimatedTotal(total),
        () => undefined,
      ),
    2000,
  );
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new Error('interrupted; run the same command again to resume this rebuild'));
  context.interrupted?.addEventListener('abort', onInterrupt, { once: true });
  if (context.interrupted?.aborted) onInterrupt();
  try {
    const results = await rebuildReadModels({
      store,
      pool,
      models,
      maxBatchSize: options.batchSize,
      signal: interrupt.signal,
      onPlanned: (plan) => {
        for (const p of plan)
          println(context.stderr, `${p.name}: ${p.resumed ? 'resuming' : 'building'} version ${p.version} beside the live one`);
        bar.start(estimate);
      },
      onProgress: (progress) => bar.update(progress),
    });
    bar.stop();
    for (const [i, r] of results.entries()) println(context.stdout, switchedLine(models[i].name, r));
  } finally {
    bar.stop();
    clearInterval(refresh);
    context.interrupted?.removeEventListener('abort', onInterrupt);
  }
}

/** "orders: readers switched from version 1 to 2 (1 event applied during the switch); version 1 is kept until drop-old". */
export function switchedLine(name: string, result: Pick<SwitchResult, 'from' | 'to' | 'caughtUpEvents'>): string {
  const from = result.from ?? '-';
  return (
    `${name}: readers switched from version ${from} to ${result.to}` +
    ` (${counted(result.caughtUpEvents, 'event')} applied during the switch); version ${from} is kept until drop-old`
  );
}
