import { Logger } from '@nestjs/common';

const logger = new Logger('NeedsReview');
let needsReviewTotal = 0;

/** A stop rule fired: money may or may not have moved and a human must decide (DESIGN §7.5). */
export function reportNeedsReview(orderId: string, reason: string): void {
  needsReviewTotal++;
  logger.error(`order ${orderId} needs review: ${reason}`);
}

export const needsReviewCount = () => needsReviewTotal;
