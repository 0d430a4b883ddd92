/**
 * The recovery audit trail: one line per order recovery looked at — the key, the state before and
 * after, and why. Kept in PostgreSQL beside the webhook deliveries (same migration set).
 */
import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';

export interface RecoveryLine {
  orderId: string;
  providerKey: string;
  oldStatus: string;
  newStatus: string;
  reason: string;
  trigger: 'schedule' | 'cli' | 'support';
  /** Who asked (`role:tokenId`) and their request, when a person did (a support reconcile). */
  requestedBy?: string;
  requestId?: string;
}

const logger = new Logger('Recovery');

export async function writeRecoveryLine(pool: Pool, line: RecoveryLine): Promise<void> {
  logger.log(JSON.stringify({ audit: 'recovery', ...line }));
  await pool.query(
    `INSERT INTO payment_recovery_log (order_id, provider_key, old_status, new_status, reason, trigger, requested_by, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      line.orderId,
      line.providerKey,
      line.oldStatus,
      line.newStatus,
      line.reason,
      line.trigger,
      line.requestedBy ?? null,
      line.requestId ?? null,
    ],
  );
}
