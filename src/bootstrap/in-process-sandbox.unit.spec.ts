import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { startSandboxIfEnabled } from './in-process-sandbox';

describe("npm start's in-process sandbox", () => {
  const config = loadConfig({ IDEM_DATA_DIR: '/srv/idem', LOG_LEVEL: 'error' });
  const provider = { url: 'http://127.0.0.1:3100', close: async () => undefined };

  it("keeps the provider's state under the data directory, and points the payments at it", async () => {
    const createSandbox = jest.fn(async () => provider);
    const started = await startSandboxIfEnabled(config, createSandbox);
    expect(createSandbox).toHaveBeenCalledWith({ port: expect.any(Number), stateDir: join('/srv/idem', 'sandbox') });
    expect(started.config.payments.stripeApiBase).toBe(provider.url);
  });
});
