import { EsdbEventStore } from './esdb.event-store';
import { keepAliveProblem } from './esdb.keepalive';

describe('keepAliveProblem', () => {
  it('accepts the default keep-alive and positive settings', () => {
    expect(keepAliveProblem('esdb://127.0.0.1:2113?tls=false')).toBeUndefined();
    expect(keepAliveProblem('esdb://127.0.0.1:2113?tls=false&keepAliveInterval=30000&keepAliveTimeout=5000')).toBeUndefined();
  });

  it('names a keep-alive turned off, spelled as the client accepts it', () => {
    expect(keepAliveProblem('esdb://127.0.0.1:2113?tls=false&keepAliveInterval=-1')).toMatch(/^keepAliveInterval=-1 turns off/);
    expect(keepAliveProblem('esdb://a:2113,b:2113?KEEP_ALIVE_TIMEOUT=-1')).toMatch(/^keepAliveTimeout=-1 turns off/);
    // The client keeps the last of a repeated key.
    expect(keepAliveProblem('esdb://127.0.0.1:2113?keepAliveInterval=-1&keepAliveInterval=10000')).toBeUndefined();
  });
});

describe('EsdbEventStore.connect', () => {
  it('refuses a connection string that turns the keep-alive off, before connecting', () => {
    expect(() => EsdbEventStore.connect('esdb://127.0.0.1:2113?tls=false&keepAliveTimeout=-1')).toThrow(
      /EventStoreDB connection string: keepAliveTimeout=-1 turns off the gRPC keep-alive/,
    );
  });
});
