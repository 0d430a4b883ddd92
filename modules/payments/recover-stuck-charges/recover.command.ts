/**
 * `idem recover [--order <id>] [--older-than 15m]`: run charge recovery now — for one order, or a
 * sweep of the orders silent in pending/processing/unknown for longer than the threshold. It does not
 * only verify: a pending order is charged as its first attempt (reconcile-order.ts), which the help says. Talks to the
 * configured provider (STRIPE_API_BASE; in development the running sandbox on IDEM_SANDBOX_PORT).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { println, providerUrl, type CliCommand } from '../../../src/cli/cli-context';
import { counted } from '../../../src/text/counted';
import { parseDuration } from '../../../src/config/duration';
import type { ReconcileResult } from './reconcile-order';

const duration = (raw: string) => {
  try {
    return parseDuration(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

export const recoverCommand: CliCommand = (context) =>
  new Command('recover')
    // The line `idem --help` lists; the description below is recover's own help.
    .summary('recover stuck charges now: verify processing or unknown ones with the provider, charge pending ones')
    .description(
      'recover stuck charges now, one order or every order silent longer than --older-than: a charge left processing or ' +
        'unknown is verified with the provider and its outcome recorded before anything is sent again; an order still ' +
        'pending (no worker took its job) is charged here, as its first attempt. One line per order goes to payment_recovery_log',
    )
    .option('--order <orderId>', 'recover this order only')
    // --older-than and --window choose the sweep's orders; one order is recovered as support's reconcile
    // does (an attempt inside its lease is left to its worker), so they cannot go with --order.
    .addOption(
      new Option('--older-than <duration>', 'how long an order must have been silent (default: IDEM_RECOVERY_THRESHOLD)')
        .argParser(duration)
        .conflicts('order'),
    )
    .addOption(
      new Option('--window <duration>', 'how far behind --older-than the sweep looks (default: IDEM_RECOVERY_WINDOW)')
        .argParser(duration)
        .conflicts('order'),
    )
    .action(async (options: { order?: string; olderThan?: number; window?: number }) => {
      // Loaded when the command runs (the Stripe SDK, TypeORM), not by every `idem` command (src/cli.ts).
      const [
        { createReadModelDataSource },
        { loadOrder },
        { configuredGateway },
        { reconcileOrderNow },
        { recoverStuckCharges },
        { stuckOrdersIn },
      ] = await Promise.all([
        import('../../../src/database/data-source'),
        import('../load-order'),
        import('../payment-gateway/configured-gateway'),
        import('./reconcile-order'),
        import('./recover-stuck-charges.job'),
        import('./stuck-orders'),
      ]);
      const config = context.config();
      const runtime = await context.runtime();
      const gateway = configuredGateway(config.payments, providerUrl(config));
      const deps = { store: runtime.store, pool: runtime.pool, gateway, workerId: `cli-${process.pid}` };
      const thresholdMs = options.olderThan ?? config.worker.recoveryThresholdMs;
      let results: ReconcileResult[];
      if (options.order) {
        // As the HTTP reconcile answers 404: an order nobody asked to charge has nothing to recover.
        if (!(await loadOrder(runtime.store, options.order)).state.exists) {
          throw new Error(`no charge was ever requested for order ${options.order}`);
        }
        results = [await reconcileOrderNow(deps, options.order, 'cli')];
      } else {
        const entities = context.readModels.map((m) => m.entity);
        const dataSource = await createReadModelDataSource({ url: runtime.databaseUrl, entities, poolSize: 2 }).initialize();
        try {
          results = await recoverStuckCharges(deps, stuckOrdersIn(dataSource), {
            thresholdMs,
            windowMs: options.window ?? config.worker.recoveryWindowMs,
            trigger: 'cli',
          });
        } finally {
          await dataSource.destroy();
        }
      }
      for (const r of results) println(context.stdout, `${r.orderId}  ${r.oldStatus} → ${r.newStatus}  (${r.reason})`);
      println(context.stderr, `${counted(results.length, 'order')} looked at`);
    });
