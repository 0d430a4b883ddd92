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
});
