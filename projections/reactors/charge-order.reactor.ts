/**
 * ChargeRequested → a `charge-order` job, enqueued in the transaction that moves this reactor's
 * checkpoint (DESIGN.md §7.1: the job is enqueued only through a path that cannot lose it). The job
 * handler (modules/payments/charge-order) reads the stream itself; the payload only points at it.
 */
import { ORDER_CATEGORY, type ChargeRequested } from '../../modules/payments/order.events';
import { enqueueManyInTransaction, type JobToEnqueue } from '../../src/jobs/enqueue-in-transaction';
import type { Projection } from '../../src/subscriptions/projection';

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

export const chargeOrderReactor: Projection = {
  name: 'charge_order_reactor',
  kind: 'reactor',
  filter: { streamCategories: [ORDER_CATEGORY], eventTypes: ['ChargeRequested'] },
  async handle(events, { client }) {
    const jobs: JobToEnqueue[] = [];
    for (const event of events) {
      if (event.type !== 'ChargeRequested') continue;
      const { orderId, requestNumber } = event.data as ChargeRequested['data'];
      const payload: ChargeOrderPayload = { orderId, requestNumber, causationEventId: event.id };
      jobs.push({ task: CHARGE_ORDER_TASK, payload, options: { jobKey: chargeOrderJobKey(orderId) } });
    }
    await enqueueManyInTransaction(client, jobs);
  },
};
