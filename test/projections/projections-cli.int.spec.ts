/**
 * `idem projections …` end to end on a real database: status, verify (exit code 1 on drift, every
 * difference reported), rebuild on a database the worker never ran against, drop-old, and the real
 * entry point (src/cli.ts) reading DATABASE_URL through the configuration.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli';
import type { CliContext } from '../../src/cli/cli-context';
import { loadConfig } from '../../src/config/config';
import { checkpointThrough } from '../../src/event-store/checkpoint';
import { READ_MODELS, REACTORS } from '../harness/projection-catalogue';
import { LiveWriter } from './live-writer';
import { createProjectionDatabase, type ProjectionDatabase } from './projection-harness';

const ROOT = join(__dirname, '..', '..');

describe('idem projections', () => {
  let db: ProjectionDatabase;

  beforeAll(async () => {
    db = await createProjectionDatabase('cli');
    await new LiveWriter(db.store, 5).appendCount(600);
  });
  afterAll(async () => {
    await db.close();
  });

  async function idem(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
    stdout.on('data', (c) => chunks.out.push(c));
    stderr.on('data', (c) => chunks.err.push(c));
    const context: CliContext = {
      readModels: READ_MODELS,
      reactors: REACTORS,
      config: () => loadConfig({ DATABASE_URL: db.url }),
      runtime: async () => ({ pool: db.pool, store: db.store, databaseUrl: db.url }),
      stdout,
      stderr,
      exitCode: 0,
    };
    const code = await runCli(args, context);
    return { code, out: Buffer.concat(chunks.out).toString(), err: Buffer.concat(chunks.err).toString() };
  }

  it('rebuilds every read model from the whole history on a database the worker never ran against', async () => {
    const rebuild = await idem('projections', 'rebuild', 'all');
    expect(rebuild.code).toBe(0);
    for (const model of READ_MODELS) expect(rebuild.out).toContain(`${model.name}: readers switched from version 1 to 2`);
    expect(rebuild.err).toMatch(/events applied/);
    const { rows } = await db.pool.query(
      `SELECT (SELECT count(DISTINCT stream_name)::int FROM idem_events WHERE event_type = 'ChargeRequested') AS expected, (SELECT count(*)::int FROM orders) AS actual`,
    );
    expect(rows[0].actual).toBe(rows[0].expected);
  });

  it('verifies clean with exit code 0', async () => {
    const verify = await idem('projections', 'verify');
    expect(verify.code).toBe(0);
    expect(verify.out.match(/no differences/g)).toHaveLength(READ_MODELS.length);
  });

  it('reports every difference and exits with 1 when a read model drifted', async () => {
    const { rows } = await db.pool.query(`SELECT order_id FROM orders_v2 ORDER BY order_id LIMIT 2`);
    await db.pool.query(`UPDATE orders_v2 SET status = 'failed' WHERE order_id = $1`, [rows[0].order_id]);
    await db.pool.query(`DELETE FROM orders_v2 WHERE order_id = $1`, [rows[1].order_id]);
    const verify = await idem('projections', 'verify', 'orders');
    expect(verify.code).toBe(1);
    expect(verify.out).toContain('orders@2');
    expect(verify.out).toContain('2 differences');
    expect(verify.out).toContain(`${rows[0].order_id} status: expected`);
    expect(verify.out).toContain(`${rows[1].order_id} missing`);
  });

  it('shows version, checkpoint and lag per projection', async () => {
    const status = await idem('projections', 'status');
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/PROJECTION\s+KIND\s+VERSION\s+STATE\s+CHECKPOINT/);
    expect(status.out).toMatch(/orders\s+read model\s+2\s+live\s+\d+\/\d+/);
    expect(status.out).toMatch(/orders\s+read model\s+1\s+retired/);
    // No worker ever ran here, so the reactor is known to the code but not installed.
    expect(status.out).toMatch(/charge_order_reactor\s+reactor\s+-\s+not installed/);
  });

  it('shows the checkpoint of a filtered read that moved on past the events it does not want as the transaction it read up to', async () => {
    // Where the store's settled horizon leaves such a read (retired orders@1 stands in for it).
    await db.pool.query(`UPDATE projection_checkpoints SET checkpoint = $1 WHERE name = 'orders' AND version = 1`, [
      checkpointThrough('5169'),
    ]);
    const status = await idem('projections', 'status');
    expect(status.out).toMatch(/orders\s+read model\s+1\s+retired\s+up to 5169\s/);
    expect(status.out).not.toContain('9223372036854775807');
  });

  it('drops the retired version only when asked', async () => {
    const dropped = await idem('projections', 'drop-old', 'orders');
    expect(dropped.out).toContain('orders: dropped orders_v1');
    const { rows } = await db.pool.query(`SELECT to_regclass('orders_v1') AS old, to_regclass('payment_ledger_v1') AS other`);
    expect(rows[0]).toEqual({ old: null, other: 'payment_ledger_v1' });
  });

  it('refuses an unknown read model with exit code 2', async () => {
    const result = await idem('projections', 'verify', 'nope');
    expect(result.code).toBe(2);
    expect(result.err).toContain('unknown read model "nope"');
  });

  it('runs as the real `idem` entry point, configured by DATABASE_URL', () => {
    const run = spawnSync(
      process.execPath,
      ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(ROOT, 'src', 'cli.ts'), 'projections', 'status'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/orders\s+read model\s+2\s+live/);
  });
});
