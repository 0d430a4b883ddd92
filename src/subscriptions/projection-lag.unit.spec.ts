import { formatLagMetrics, type ProjectionLag } from './projection-lag';

describe('formatLagMetrics', () => {
  it('exposes lag in events and seconds per projection version in Prometheus text format', () => {
    const lag: ProjectionLag = {
      name: 'orders',
      kind: 'read_model',
      version: 2,
      state: 'live',
      checkpoint: undefined,
      eventsProcessed: 10,
      lagEvents: 3,
      lagEventsAtLeast: false,
      lagSeconds: 0.25,
    };
    const text = formatLagMetrics([lag]);
    expect(text).toContain('# TYPE idem_projection_lag_events gauge');
    expect(text).toContain('idem_projection_lag_events{projection="orders",version="2",state="live"} 3');
    expect(text).toContain('idem_projection_lag_seconds{projection="orders",version="2",state="live"} 0.250');
  });
});
