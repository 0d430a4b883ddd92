/**
 * ChargeRequested → a `charge-order` job, enqueued in the transaction that moves this reactor's
 * checkpoint (DESIGN.md §7.1: the job is enqueued only through a path that cannot lose it). The job
 * handler (charge-order.task.ts) reads the stream itself; the payload only points at it.
 */
import { enqueueManyInTransaction, type JobToEnqueue } from '../../../src/jobs/enqueue-in-transaction';
import type { Projection } from '../../../src/subscriptions/projection';
import { ORDER_CATEGORY, type ChargeRequested } from '../order.events';
import { CHARGE_ORDER_TASK, chargeOrderJobKey, type ChargeOrderPayload } from './charge-order.payload';

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
