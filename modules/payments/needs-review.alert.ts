/**
 * The alerts of the payment stop rules (DESIGN.md §7.5): an error line in the log and a Prometheus
 * counter in the process that raised it. The counters are scraped from the api's /metrics when the
 * job ran there (the embedded default runs the worker inside the api); a separate worker has no HTTP
 * port, which is why the cases themselves are also counted from the shared support_jobs read model
 * (`idem_support_needs_review_cases`, modules/support/review-metrics/).
 */
import { Logger } from '@nestjs/common';
import { Counter } from 'prom-client';

const logger = new Logger('NeedsReview');

const needsReviewAlerts = new Counter({
  name: 'idem_needs_review_alerts_total',
  help: 'Stop rules that sent an order to review in this process (a human must decide whether money moved).',
});

const secondCharges = new Counter({
  name: 'idem_second_charges_total',
  help: 'Charges the provider reported for an order already paid, in this process: a refund to make.',
});

/** A stop rule fired: money may or may not have moved and a human must decide (DESIGN §7.5). */
export function reportNeedsReview(orderId: string, reason: string): void {
  needsReviewAlerts.inc();
  logger.error(`order ${orderId} needs review: ${reason}`);
}

/** Money moved twice for an order already paid (the order went to review with the reason): a refund to make. */
export function reportSecondCharge(orderId: string, reason: string): void {
  secondCharges.inc();
  logger.error(`order ${orderId} was charged twice: ${reason}`);
}

const valueOf = async (counter: Counter): Promise<number> => (await counter.get()).values[0]?.value ?? 0;

export const needsReviewCount = () => valueOf(needsReviewAlerts);
export const secondChargeCount = () => valueOf(secondCharges);
