/**
 * What the charge reactor puts on the queue for one order: the task name, its key and its payload.
 * Imports nothing, so the support_jobs projector can name the same job without loading the worker.
 */
export const CHARGE_ORDER_TASK = 'charge-order';

/**
 * One key per order: a charge already waiting for the same order is replaced, not doubled. Prefixed
 * with the task because graphile-worker keys are global across tasks (a bare order id would let any
 * other order-keyed job silently replace the charge).
 */
export const chargeOrderJobKey = (orderId: string) => `${CHARGE_ORDER_TASK}:${orderId}`;

export interface ChargeOrderPayload {
  orderId: string;
  requestNumber: number;
  /** The ChargeRequested event that caused the job. */
  causationEventId: string;
}
