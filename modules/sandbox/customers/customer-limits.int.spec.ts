import Stripe from 'stripe';
import { failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox();
});
afterEach(() => t.sandbox.close());

describe("POST /v1/customers and /v1/customers/:id: spec3.json's maxLength and Stripe's metadata limits", () => {
  it.each<[string, Stripe.CustomerCreateParams, string, number]>([
    ['email', { email: `${'e'.repeat(501)}@example.test` }, 'email', 512],
    ['name', { name: 'n'.repeat(257) }, 'name', 256],
    ['description', { description: 'd'.repeat(5001) }, 'description', 5000],
  ])('refuses a customer %s over its maxLength, naming it', async (_label, params, param, maxLength) => {
    const error = await failureOf(t.stripe.customers.create(params));

    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param });
    expect(error.message).toMatch(new RegExp(`; must be at most ${maxLength} characters$`));
  });

  it('takes a name of exactly 256 characters', async () => {
    const customer = await t.stripe.customers.create({ name: 'n'.repeat(256) });

    expect(customer.name).toBe('n'.repeat(256));
  });

  it('refuses a default_payment_method over 5,000 characters on update', async () => {
    const customer = (await t.stripe.customers.create({})).id;

    const error = await failureOf(t.stripe.customers.update(customer, { invoice_settings: { default_payment_method: 'p'.repeat(5001) } }));

    expect(error).toMatchObject({
      statusCode: 400,
      param: 'invoice_settings[default_payment_method]',
      message: expect.stringMatching(/; must be at most 5000 characters$/),
    });
  });

  it.each([
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata', /up to 50 keys, but you've set 51/],
    ['a key of 41 characters', { ['k'.repeat(41)]: 'v' }, `metadata[${'k'.repeat(41)}]`, /keys can be at most 40/],
    ['a value of 501 characters', { note: 'v'.repeat(501) }, 'metadata[note]', /values can be at most 500/],
  ])('refuses metadata with %s, as on a PaymentIntent (docs.stripe.com/api/metadata)', async (_label, metadata, param, message) => {
    const customer = (await t.stripe.customers.create({})).id;

    const created = await failureOf(t.stripe.customers.create({ metadata }));
    const updated = await failureOf(t.stripe.customers.update(customer, { metadata }));

    for (const error of [created, updated])
      expect(error).toMatchObject({ statusCode: 400, param, message: expect.stringMatching(message) });
    expect((await t.stripe.customers.retrieve(customer)) as Stripe.Customer).toMatchObject({ metadata: {} });
  });

  it('takes expand[], a parameter of both endpoints, instead of calling it unknown', async () => {
    const created = await t.stripe.customers.create({ name: 'Ada', expand: ['invoice_settings.default_payment_method'] });
    const updated = await t.stripe.customers.update(created.id, { name: 'Ada L', expand: ['invoice_settings.default_payment_method'] });

    expect(updated).toMatchObject({ id: created.id, name: 'Ada L' });
  });

  it('updates metadata key by key: keys not sent stay, an empty value unsets one, metadata= unsets all', async () => {
    const customer = (await t.stripe.customers.create({ metadata: { crm_id: '4419', tier: 'gold', note: '' } })).id;

    const merged = await t.stripe.customers.update(customer, { metadata: { tier: 'silver', region: 'eu' } });
    const unsetOne = await t.stripe.customers.update(customer, { metadata: { region: '' } });
    const unsetAll = await t.stripe.customers.update(customer, { metadata: '' });

    expect(merged.metadata).toEqual({ crm_id: '4419', tier: 'silver', region: 'eu' });
    expect(unsetOne.metadata).toEqual({ crm_id: '4419', tier: 'silver' });
    expect(unsetAll.metadata).toEqual({});
  });

  it('holds the 50-key limit for the keys a customer ends up with', async () => {
    const keys = (from: number) => Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${from + i}`, 'v']));
    const customer = (await t.stripe.customers.create({ metadata: keys(0) })).id;
    await t.stripe.customers.update(customer, { metadata: keys(25) });

    const error = await failureOf(t.stripe.customers.update(customer, { metadata: { k50: 'v' } }));

    expect(error).toMatchObject({ statusCode: 400, param: 'metadata', message: expect.stringMatching(/you've set 51/) });
  });
});
