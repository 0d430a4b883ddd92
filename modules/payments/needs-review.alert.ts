import { Logger } from '@nestjs/common';

const logger = new Logger('NeedsReview');
let needsReviewTotal = 0;

/** A stop rule fired: money may or may not have moved and a human must decide (DESIGN §7.5). */
export function reportNeedsReview(orderId: string, reason: string): void {
  needsReviewTotal++;
  logger.error(`order ${orderId} needs review: ${reason}`);
}

export const needsReviewCount = () => needsReviewTotal;

let secondChargesTotal = 0;

/** Money moved twice for an order already paid: nothing to record on the order, a refund to make. */
export function reportSecondCharge(orderId: string, reason: string): void {
  secondChargesTotal++;
  logger.error(`order ${orderId} was charged twice: ${reason}`);
}

export const secondChargeCount = () => secondChargesTotal;
