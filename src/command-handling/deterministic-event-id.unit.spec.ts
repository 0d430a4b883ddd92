import { deterministicEventId } from './deterministic-event-id';

describe('deterministicEventId', () => {
  const event = { type: 'ChargeRequested', data: { a: 1, b: 'é' } };

  it('keeps the ids of earlier versions, so a retry sent before an upgrade is recognised after it', () => {
    // Computed by the implementation this one replaced (createHash with three updates).
    expect(deterministicEventId('order-1', 'charge-requested/1/r', event)).toBe('5ca7ea86-72ad-5582-885e-6e91606111a5');
  });

  it('is a version 5, RFC variant UUID', () => {
    expect(deterministicEventId('order-1', 'step', event)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('names the stream, the step and the facts: change any one and the id changes', () => {
    const id = deterministicEventId('order-1', 'step', event);
    expect(deterministicEventId('order-2', 'step', event)).not.toBe(id);
    expect(deterministicEventId('order-1', 'step2', event)).not.toBe(id);
    expect(deterministicEventId('order-1', 'step', { ...event, data: { a: 2, b: 'é' } })).not.toBe(id);
    expect(deterministicEventId('order-1', 'step', { ...event, type: 'ChargeFailed' })).not.toBe(id);
  });
});
