import { FaultPlan } from './fault-plan';

describe('FaultPlan', () => {
  it('applies only the first fault that strikes, in the order they were added', () => {
    const plan = new FaultPlan();
    plan.add({ kind: 'latency', orderId: 'A', ms: 5 });
    plan.add({ kind: 'error_500' });

    expect(plan.strike('B')?.kind).toBe('error_500');
    expect(plan.strike('A')?.kind).toBe('latency');
    expect(plan.strike('A')).toBeUndefined();
  });

  it('keeps a probabilistic fault armed and counts its hits', () => {
    const plan = new FaultPlan();
    plan.add({ kind: 'error_500', probability: 1 });

    plan.strike(undefined);
    plan.strike(undefined);

    expect(plan.list()).toEqual([expect.objectContaining({ hits: 2, probability: 1, seed: 1 })]);
  });

  it('never strikes with probability 0', () => {
    const plan = new FaultPlan();
    plan.add({ kind: 'error_500', probability: 0 });

    expect(Array.from({ length: 50 }, () => plan.strike(undefined)).filter(Boolean)).toEqual([]);
  });

  it('fills in the documented default durations', () => {
    const plan = new FaultPlan();

    expect(plan.add({ kind: 'latency' }).ms).toBe(1000);
    expect(plan.add({ kind: 'timeout' }).ms).toBe(30_000);
    expect(plan.add({ kind: 'drop_after_commit' }).ms).toBeUndefined();
  });
});
