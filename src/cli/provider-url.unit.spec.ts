import { loadConfig } from '../config/config';
import { providerUrl } from './cli-context';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://u:p@db/idem',
  IDEM_TOKENS: 'support=0123456789abcdef0123',
  STRIPE_SECRET_KEY: 'sk_live_abc',
  IDEM_WEBHOOK_SECRET: 'whsec_x',
};

describe("where an idem command reaches the provider (idem recover's gateway)", () => {
  it('is api.stripe.com (the SDK default) in production, never a local port, with a live key', () => {
    expect(providerUrl(loadConfig(production))).toBeUndefined();
  });

  it('is STRIPE_API_BASE when it is set, in production or not', () => {
    expect(providerUrl(loadConfig({ ...production, STRIPE_API_BASE: 'https://stripe.internal.example' }))).toBe(
      'https://stripe.internal.example',
    );
    expect(providerUrl(loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:4242' }))).toBe('http://127.0.0.1:4242');
  });

  it("is the local npm start's sandbox in development", () => {
    expect(providerUrl(loadConfig({ IDEM_SANDBOX_PORT: '3177' }))).toBe('http://127.0.0.1:3177');
  });

  it('is api.stripe.com when the sandbox is turned off in development', () => {
    expect(providerUrl(loadConfig({ IDEM_SANDBOX: 'false' }))).toBeUndefined();
  });
});
