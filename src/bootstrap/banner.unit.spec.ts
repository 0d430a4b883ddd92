import { loadConfig } from '../config/config';
import { startupBanner } from './banner';
import type { Runtime } from './runtime';

const embeddedRuntime = {
  embedded: { port: 5433 },
  databaseUrl: 'postgres://postgres:idem-embedded@127.0.0.1:5433/idem',
} as unknown as Runtime;

const bannerFor = (env: Record<string, string>) =>
  startupBanner({
    config: loadConfig({ IDEM_DATA_DIR: '/data', LOG_LEVEL: 'error', ...env }),
    url: 'http://127.0.0.1:3000',
    runtime: embeddedRuntime,
    cliEnvironment: { STRIPE_API_BASE: 'http://127.0.0.1:3100' },
  });

describe('the start banner', () => {
  describe('on the PostgreSQL event store', () => {
    it('says the events are in the database, and an idem beside it needs only that database and the provider', () => {
      const banner = bannerFor({});
      expect(banner).toContain('  event store    postgres (the database above)\n');
      expect(banner).toContain(
        'idem beside it: DATABASE_URL=postgres://postgres:idem-embedded@127.0.0.1:5433/idem STRIPE_API_BASE=http://127.0.0.1:3100\n',
      );
    });
  });

  describe('on EventStoreDB', () => {
    it('says where the store is and gives an idem beside it the store as well as the database', () => {
      const banner = bannerFor({ EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://127.0.0.1:2113?tls=false' });
      expect(banner).toContain('  event store    EventStoreDB at esdb://127.0.0.1:2113?tls=false\n');
      expect(banner).toContain(
        'idem beside it: DATABASE_URL=postgres://postgres:idem-embedded@127.0.0.1:5433/idem ' +
          "EVENT_STORE=esdb EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false' STRIPE_API_BASE=http://127.0.0.1:3100\n",
      );
    });

    it("quotes for the shell the values of the idem line that a shell would read otherwise ('?' is a glob in zsh)", () => {
      const banner = bannerFor({ EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: "esdb://db:2113?tls=false&nodePreference=it's" });
      expect(banner).toContain(` EVENTSTORE_CONNECTION_STRING='esdb://db:2113?tls=false&nodePreference=it'\\''s' `);
    });

    it('masks the password of a store that takes one', () => {
      const banner = bannerFor({ EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://admin:changeit@db.internal:2113?tls=true' });
      expect(banner).not.toContain('changeit');
      expect(banner).toContain('EventStoreDB at esdb://admin:***@db.internal:2113?tls=true');
    });
  });
});

describe('the worker line', () => {
  it('says how often recovery runs as IDEM_RECOVERY_INTERVAL is written, 15m by default', () => {
    const worker = (env: Record<string, string>) =>
      startupBanner({
        config: loadConfig({ IDEM_DATA_DIR: '/data', LOG_LEVEL: 'error', ...env }),
        url: 'http://127.0.0.1:3000',
        runtime: embeddedRuntime,
        worker: 'w-1',
        cliEnvironment: {},
      });
    expect(worker({})).toContain('recovery every 15m\n');
    expect(worker({ IDEM_RECOVERY_INTERVAL: '30s' })).toContain('recovery every 30s\n');
  });
});
