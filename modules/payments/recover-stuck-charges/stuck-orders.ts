import type { DataSource } from 'typeorm';
import { OrderQueries } from '../../../projections/orders/orders.queries';
import type { FindStuckOrders } from './recover-stuck-charges.job';

/** "Which orders are stuck?", as the orders read model answers it (the sweep's only query). */
export function stuckOrdersIn(readModels: DataSource): FindStuckOrders {
  const orders = new OrderQueries(readModels);
  return (statuses, after, before, limit) => orders.findStuckOrders(statuses, after, before, limit);
}
