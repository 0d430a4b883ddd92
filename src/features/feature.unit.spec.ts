import type { Task } from 'graphile-worker';
import { loadConfig } from '../config/config';
import type { Projection } from '../subscriptions/projection';
import type { AnyReadModel } from '../subscriptions/read-models/read-model';
import { projectionLanesOf, reactorsOf, readModelsOf, taskListOf, type Feature, type WorkerContext } from './feature';

const readModel = (name: string) => ({ name }) as unknown as AnyReadModel;
const reactor = (name: string) => ({ name, kind: 'reactor' }) as unknown as Projection;
const task: Task = async () => undefined;
const worker = { config: loadConfig({}), workerId: 'w' } as WorkerContext;

describe('collecting features', () => {
  const payments: Feature = {
    name: 'payments',
    readModels: [readModel('orders'), readModel('payment_ledger')],
    reactors: [reactor('charge')],
  };
  const support: Feature = { name: 'support', readModels: [readModel('support_jobs')] };

  it('lists read models and reactors in the order of the features', () => {
    expect(readModelsOf([payments, support]).map((m) => m.name)).toEqual(['orders', 'payment_ledger', 'support_jobs']);
    expect(reactorsOf([payments, support], worker.config).map((r) => r.name)).toEqual(['charge']);
  });

  it('asks a feature whose reactors depend on the configuration for them with the one it is given', () => {
    const alerting: Feature = {
      name: 'support',
      reactors: (config) => (config.alerts.webhookUrl ? [reactor('alert')] : []),
    };
    const withUrl = loadConfig({ IDEM_ALERT_WEBHOOK_URL: 'https://alerts.example.com/idem' });
    expect(reactorsOf([payments, alerting], withUrl).map((r) => r.name)).toEqual(['charge', 'alert']);
    expect(reactorsOf([payments, alerting], worker.config).map((r) => r.name)).toEqual(['charge']);
  });

  it('names the lane of each read model and reactor whose feature names one, and of no other', () => {
    const laned: Feature = { ...payments, projectionLane: 'payments' };
    const alerting: Feature = { name: 'support', projectionLane: 'payments', reactors: () => [reactor('alert')] };
    const lanes = projectionLanesOf([laned, support, alerting], worker.config);
    expect(Object.fromEntries(lanes)).toEqual({ orders: 'payments', payment_ledger: 'payments', charge: 'payments', alert: 'payments' });
  });

  it("gives a projection the feature names a lane for that lane, and the feature's others the feature's", () => {
    const contacts: Feature = {
      ...payments,
      name: 'contacts',
      projectionLanes: { orders: 'contacts' },
    };
    expect(Object.fromEntries(projectionLanesOf([contacts], worker.config))).toEqual({ orders: 'contacts' });
    const laned: Feature = { ...contacts, projectionLane: 'bulk' };
    expect(Object.fromEntries(projectionLanesOf([laned], worker.config))).toEqual({
      orders: 'contacts',
      payment_ledger: 'bulk',
      charge: 'bulk',
    });
  });

  it('refuses a lane named for a projection the feature does not have', () => {
    const mistyped: Feature = { ...payments, projectionLanes: { order: 'payments' } };
    expect(() => projectionLanesOf([mistyped], worker.config)).toThrow('payments names a lane for order, which it has no projection of');
  });

  it("builds every feature's tasks with the worker it is given", () => {
    const seen: string[] = [];
    const charging: Feature = { name: 'payments', tasks: (w) => (seen.push(w.workerId), { 'charge-order': task }) };
    const syncing: Feature = { name: 'contacts', tasks: () => ({ 'import-page': task }) };
    expect(Object.keys(taskListOf([charging, syncing, support], worker))).toEqual(['charge-order', 'import-page']);
    expect(seen).toEqual(['w']);
  });

  it('refuses two features claiming one task name', () => {
    const first: Feature = { name: 'payments', tasks: () => ({ 'charge-order': task }) };
    const second: Feature = { name: 'billing', tasks: () => ({ 'charge-order': task }) };
    expect(() => taskListOf([first, second], worker)).toThrow('job task charge-order is claimed twice (again by billing)');
  });
});
