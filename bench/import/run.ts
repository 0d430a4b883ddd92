/**
 * `npm run bench:import` — Idem's contact import against the seed's own state-based recipe, on the
 * same embedded PostgreSQL (the service's) and the same generated data (data.ts): 100,000 contacts,
 * 20 % updates, 10 % stale, 5 % duplicates. The recipe runs in child processes (DESIGN.md §10); the
 * service runs as `npm start` does, in its own process, so its peak RSS is its own.
 *
 * Settings: BENCH_CONTACTS [100000], BENCH_BUILD [1] (0: use dist/src/main.js as built).
 * Last line of stdout: JSON with row_upsert_per_s, batch_upsert_per_s, push_records_per_s,
 * pull_records_per_s, the ratios, peak_rss_mb, contacts, distinct_source_ids, wrong_state (and
 * push_answered_per_s: how fast the api answered, before the read model caught up, and
 * push_all_projected_per_s: until import_events, sync_runs and the audit chain had every record too).
 * Targets (issue 14): ratio_vs_row_upsert ≥ 2, ratio_vs_batch_upsert ≥ 0.3, pull_vs_push ≥ 0.7,
 * peak_rss_mb ≤ 300, contacts == distinct_source_ids, wrong_state == 0. Beside them, the push again
 * with the api and the worker in two processes (api-worker.ts): `*_api_worker` figures.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildService, memoryMb, REPO, startScriptNodeFlags, startService } from '../charges/service';
import { runChild } from '../lib/child';
import { numberFromEnv } from '../lib/env';
import { progress } from '../lib/log';
import { describeMachine, machineInfo, postgresInfo } from '../lib/machine';
import { round } from '../lib/stats';
import { generate } from './data';
import { startApiAndWorker } from './api-worker';
import { pull, push, wrongState } from './idem-contenders';

async function main(): Promise<void> {
  const contacts = numberFromEnv('BENCH_CONTACTS', 100_000, 10);
  const build = numberFromEnv('BENCH_BUILD', 1, 0) > 0;
  const tempDir = mkdtempSync(join(tmpdir(), 'idem-bench-import-'));
  chmodSync(tempDir, 0o755);
  const mainJs = build
    ? await buildService(join(REPO, 'node_modules', '.cache', 'idem-bench-import'), progress)
    : join(REPO, 'dist', 'src', 'main.js');
  progress(`starting the service (embedded PostgreSQL in ${tempDir}/data)`);
  const service = await startService(
    mainJs,
    { PORT: '0', IDEM_SANDBOX_PORT: '0', IDEM_DATA_DIR: join(tempDir, 'data'), LOG_LEVEL: 'warn' },
    { execArgv: startScriptNodeFlags() },
  );
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryMb(service.pid)?.hwm ?? 0)), 500);
  try {
    const postgres = await postgresInfo(service.databaseUrl);
    progress(describeMachine(machineInfo(), postgres));
    const { records, freshest } = generate(contacts);
    progress(`${records.length} records for ${contacts} contacts`);
    const child = (mode: 'row' | 'batch') =>
      runChild<object, { perSecond: number; wrongState: number }>(resolve(__dirname, 'upsert.child.ts'), {
        url: service.databaseUrl,
        mode,
        contacts,
      });
    const row = await child('row');
    progress(`row upsert: ${round(row.perSecond)} records/s (wrong state ${row.wrongState})`);
    const batch = await child('batch');
    progress(`batch upsert: ${round(batch.perSecond)} records/s (wrong state ${batch.wrongState})`);
    const pushed = await push(service.apiUrl, service.databaseUrl, records, freshest);
    progress(
      `push: ${round(pushed.perSecond)} records/s end to end (answered at ${round(pushed.ackedPerSecond)} records/s, ` +
        `every import projection done at ${round(pushed.allProjectedPerSecond)} records/s)`,
    );
    const pulled = await pull(service.apiUrl, service.sandboxUrl, contacts);
    progress(`pull: ${round(pulled.perSecond)} records/s start to completed`);
    const state = await wrongState(service.databaseUrl, freshest);
    peakRss = Math.max(peakRss, memoryMb(service.pid)?.hwm ?? 0);
    // The same push against the production topology, on a database of its own (service stopped first,
    // so the two never share the machine; the sampler first, as a stopped process reads as NaN).
    clearInterval(sampler);
    await service.stop();
    progress('push again, api and worker in two processes (docker-compose topology)');
    const split = await startApiAndWorker(mainJs, {
      PORT: '0',
      IDEM_SANDBOX_PORT: '0',
      IDEM_DATA_DIR: join(tempDir, 'data-api-worker'),
      LOG_LEVEL: 'warn',
    });
    let splitPush: { perSecond: number };
    let splitState: { contacts: number; wrong: number };
    let splitRss: number;
    try {
      splitPush = await push(split.api.apiUrl, split.api.databaseUrl, records, freshest);
      splitState = await wrongState(split.api.databaseUrl, freshest);
      splitRss = split.peakRssMb();
    } finally {
      await split.stop();
    }
    progress(`push, api + worker: ${round(splitPush.perSecond)} records/s end to end`);
    const result = {
      contacts: state.contacts,
      distinct_source_ids: freshest.size,
      records: records.length,
      row_upsert_per_s: round(row.perSecond),
      batch_upsert_per_s: round(batch.perSecond),
      push_records_per_s: round(pushed.perSecond),
      // Not a target: the rate at which the api answered the batches; the read model caught up later.
      push_answered_per_s: round(pushed.ackedPerSecond),
      // Not a target either: until import_events, sync_runs and the audit chain had the push too (the
      // contacts read model rides a lane of its own and is done first).
      push_all_projected_per_s: round(pushed.allProjectedPerSecond),
      pull_records_per_s: round(pulled.perSecond),
      ratio_vs_row_upsert: round(pushed.perSecond / row.perSecond, 2),
      ratio_vs_batch_upsert: round(pushed.perSecond / batch.perSecond, 2),
      pull_vs_push: round(pulled.perSecond / pushed.perSecond, 2),
      peak_rss_mb: round(peakRss),
      wrong_state: state.wrong,
      recipe_wrong_state: row.wrongState + batch.wrongState,
      // The docker-compose topology (api-worker.ts): not what the targets above were set on.
      push_records_per_s_api_worker: round(splitPush.perSecond),
      ratio_vs_row_upsert_api_worker: round(splitPush.perSecond / row.perSecond, 2),
      ratio_vs_batch_upsert_api_worker: round(splitPush.perSecond / batch.perSecond, 2),
      peak_rss_mb_api_plus_worker: round(splitRss),
      wrong_state_api_worker: splitState.wrong,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    clearInterval(sampler);
    await service.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
