import { chargeParams, failureOf, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox({ searchLagMs: 0 });
});
afterEach(() => t.sandbox.close());

/** A customer with Stripe's test card saved as their default, as a storefront saves it. */
async function customerWithCard(testMethod = 'pm_card_visa'): Promise<{ customer: string; card: string }> {
  const customer = (await t.stripe.customers.create({ email: 'shopper@example.test' })).id;
  const card = (await t.stripe.paymentMethods.attach(testMethod, { customer })).id;
  await t.stripe.customers.update(customer, { invoice_settings: { default_payment_method: card } });
  return { customer, card };
}

describe('sandbox customers and saved cards', () => {
  it("attaching a test method makes a new PaymentMethod of the customer's, which becomes the default", async () => {
    const { customer, card } = await customerWithCard();

    const retrieved = await t.stripe.customers.retrieve(customer);
    const listed = await t.stripe.paymentMethods.list({ customer, type: 'card' });

    expect(card).toMatch(/^pm_[0-9A-Za-z]{24}$/);
    expect(retrieved).toMatchObject({ id: customer, object: 'customer', invoice_settings: { default_payment_method: card } });
    expect(listed.data.map((m) => [m.id, m.customer, m.type])).toEqual([[card, customer, 'card']]);
  });

  it("answers an unknown customer with Stripe's 404 resource_missing", async () => {
    const error = await failureOf(t.stripe.customers.retrieve('cus_nobody'));

    expect(error).toMatchObject({ statusCode: 404, type: 'StripeInvalidRequestError', code: 'resource_missing', param: 'id' });
    expect(error.message).toBe("No such customer: 'cus_nobody'");
  });

  it('refuses a default that is not attached to the customer', async () => {
    const { card } = await customerWithCard();
    const other = (await t.stripe.customers.create({})).id;

    const error = await failureOf(t.stripe.customers.update(other, { invoice_settings: { default_payment_method: card } }));

    expect(error).toMatchObject({ statusCode: 400, param: 'invoice_settings[default_payment_method]' });
  });

  it("refuses a PaymentIntent for one customer with another customer's PaymentMethod, and creates nothing", async () => {
    const { card } = await customerWithCard();
    const stranger = (await t.stripe.customers.create({})).id;

    const error = await failureOf(t.stripe.paymentIntents.create(chargeParams('c1', { customer: stranger, payment_method: card })));

    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param: 'payment_method' });
    expect(error.message).toBe(
      `The PaymentMethod ${card} does not belong to the Customer you supplied ${stranger}. ` +
        'Please use this PaymentMethod with the Customer that it belongs to instead.',
    );
    expect(t.sandbox.charges({ orderId: 'c1' })).toEqual([]);
  });

  it('charges a saved card as the test card it was made from, for its customer', async () => {
    const visa = await customerWithCard();
    const declining = await customerWithCard('pm_card_chargeDeclined');

    const paid = await t.stripe.paymentIntents.create(chargeParams('c2', { customer: visa.customer, payment_method: visa.card }));
    const declined = await failureOf(
      t.stripe.paymentIntents.create(chargeParams('c3', { customer: declining.customer, payment_method: declining.card })),
    );

    expect(paid).toMatchObject({ status: 'succeeded', customer: visa.customer, payment_method: visa.card });
    expect(declined).toMatchObject({ statusCode: 402, decline_code: 'generic_decline' });
  });

  it("still accepts Stripe's test ids for any customer, as test mode does", async () => {
    const { customer } = await customerWithCard();

    const paid = await t.stripe.paymentIntents.create(chargeParams('c4', { customer, payment_method: 'pm_card_visa' }));

    expect(paid.status).toBe('succeeded');
  });

  it('lists no card for a customer without one, and refuses a list for an unknown customer', async () => {
    const customer = (await t.stripe.customers.create({})).id;

    const empty = await t.stripe.paymentMethods.list({ customer, type: 'card' });
    const unknown = await failureOf(t.stripe.paymentMethods.list({ customer: 'cus_nobody', type: 'card' }));

    expect(empty).toMatchObject({ object: 'list', data: [], has_more: false });
    expect(unknown).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });
});
