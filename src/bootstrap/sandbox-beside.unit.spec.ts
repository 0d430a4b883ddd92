import { loadConfig } from '../config/config';
import { NoSandboxBeside, providerOfWorker } from './sandbox-beside';

describe('the provider a worker process charges', () => {
  const development = { IDEM_DATA_DIR: '/srv/idem', LOG_LEVEL: 'error', IDEM_SANDBOX_PORT: '3177' };

  describe('when STRIPE_API_BASE is set', () => {
    it('is that provider, and no sandbox is looked for', async () => {
      const answers = jest.fn(async () => true);
      const config = await providerOfWorker(loadConfig({ ...development, STRIPE_API_BASE: 'http://127.0.0.1:4242' }), answers);
      expect(config.payments.stripeApiBase).toBe('http://127.0.0.1:4242');
      expect(answers).not.toHaveBeenCalled();
    });
  });

  describe('when the sandbox is off (IDEM_SANDBOX=false)', () => {
    it('is Stripe itself, as configured, and no sandbox is looked for', async () => {
      const answers = jest.fn(async () => true);
      const config = await providerOfWorker(loadConfig({ ...development, IDEM_SANDBOX: 'false' }), answers);
      expect(config.payments.stripeApiBase).toBeUndefined();
      expect(answers).not.toHaveBeenCalled();
    });
  });

  describe('in development without STRIPE_API_BASE', () => {
    it("is the api's sandbox at IDEM_SANDBOX_PORT when it answers there", async () => {
      const answers = jest.fn(async () => true);
      const config = await providerOfWorker(loadConfig(development), answers);
      expect(answers).toHaveBeenCalledWith('http://127.0.0.1:3177');
      expect(config.payments.stripeApiBase).toBe('http://127.0.0.1:3177');
    });

    it('refuses to start, naming the address it tried and what to set, when nothing answers there', async () => {
      const refused = providerOfWorker(loadConfig(development), async () => false);
      await expect(refused).rejects.toBeInstanceOf(NoSandboxBeside);
      await expect(refused).rejects.toThrow(
        /no sandbox provider answers at http:\/\/127\.0\.0\.1:3177 \(IDEM_SANDBOX_PORT\).*STRIPE_API_BASE/,
      );
    });
  });
});
