/**
 * Every answer the gateway can receive from the sandbox validates against the PaymentIntent and error
 * schemas of Stripe's published OpenAPI specification (stripe-openapi-subset.json: source and version
 * recorded there). Raw HTTP, so that what is checked is the wire body, not the SDK's reading of it.
 */
import { chargeParams, control, startSandbox, type SandboxUnderTest } from '../sandbox.fixture';
import { stripeValidator } from './stripe-schemas';

const paymentIntent = stripeValidator('payment_intent');
const stripeError = stripeValidator('error');
const customerSchema = stripeValidator('customer');
const paymentMethodSchema = stripeValidator('payment_method');
const paymentMethodList = stripeValidator('payment_flows_payment_method_list');

let t: SandboxUnderTest;
beforeEach(async () => {
  t = await startSandbox({ searchLagMs: 0 });
  for (const id of ['cus_1', 'cus_stranger']) t.sandbox.createCustomer({ id });
});
afterEach(() => t.sandbox.close());

const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const base = (orderId: string, extra: Record<string, string> = {}) =>
  form({
    amount: '4200',
    currency: 'eur',
    customer: 'cus_1',
    payment_method: 'pm_card_visa',
    confirm: 'true',
    off_session: 'true',
    'metadata[order_id]': orderId,
    ...extra,
  });

async function send(
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${t.sandbox.url}${path}`, {
    method,
    headers: { authorization: 'Bearer sk_test_schema', ...(body && { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
    ...(body && { body }),
  });
  return { status: response.status, json: await response.json() };
}

function expectValid(validate: typeof paymentIntent, body: unknown): void {
  const valid = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describe("sandbox answers against Stripe's OpenAPI schemas", () => {
  it.each([
    ['a succeeded charge', base('s1')],
    ['a processing payment', base('s2', { payment_method: 'pm_successDelayed_de' })],
    [
      'a creation without confirm',
      form({ amount: '4200', currency: 'eur', customer: 'cus_1', payment_method: 'pm_card_visa', 'metadata[order_id]': 's4' }),
    ],
    [
      'an on-session charge that requires action',
      form({
        amount: '4200',
        currency: 'eur',
        payment_method: 'pm_card_authenticationRequired',
        confirm: 'true',
        return_url: 'https://shop.example/r',
        'metadata[order_id]': 's3',
      }),
    ],
  ])('200 for %s is a PaymentIntent', async (_label, body) => {
    const { status, json } = await send('POST', '/v1/payment_intents', body);

    expect(status).toBe(200);
    expectValid(paymentIntent, json);
  });

  it.each([
    ['a decline', 402, base('e1', { payment_method: 'pm_card_chargeDeclined' })],
    ['authentication_required off-session', 402, base('e2', { payment_method: 'pm_card_authenticationRequired' })],
    ['a missing parameter', 400, form({ currency: 'eur', confirm: 'true' })],
    [
      'a confirm without return_url or exemption',
      400,
      form({ amount: '4200', currency: 'eur', payment_method: 'pm_card_visa', confirm: 'true' }),
    ],
    ['an amount below the currency minimum', 400, base('e6', { amount: '1' })],
    ['an unknown customer', 400, base('e4', { customer: 'cus_nobody' })],
    ['an unknown payment method', 400, base('e5', { payment_method: 'pm_sandbox_processing' })],
    ['a confirm-only parameter without confirm', 400, form({ amount: '4200', currency: 'eur', off_session: 'true' })],
  ])('%s is an error (%i)', async (_label, expectedStatus, body) => {
    const { status, json } = await send('POST', '/v1/payment_intents', body);

    expect(status).toBe(expectedStatus);
    expectValid(stripeError, json);
  });

  it('the embedded intent of a decline is a PaymentIntent too', async () => {
    const { json } = await send('POST', '/v1/payment_intents', base('e3', { payment_method: 'pm_card_chargeDeclined' }));

    expectValid(paymentIntent, (json as { error: { payment_intent: unknown } }).error.payment_intent);
  });

  it('idempotency errors (400 other parameters, 409 in flight), a stored 500 and a 401 are errors', async () => {
    await send('POST', '/v1/payment_intents', base('k1'), { 'idempotency-key': 'k1' });
    const mismatch = await send('POST', '/v1/payment_intents', base('k1', { amount: '9900' }), { 'idempotency-key': 'k1' });
    await control(t.sandbox, 'POST', '/_sandbox/faults', { kind: 'latency', ms: 500, orderId: 'k2' });
    const first = send('POST', '/v1/payment_intents', base('k2'), { 'idempotency-key': 'k2' });
    await new Promise<void>((resolve) => t.sandbox.signals.once('fault-struck', () => resolve()));
    const inFlight = await send('POST', '/v1/payment_intents', base('k2'), { 'idempotency-key': 'k2' });
    await first;
    await control(t.sandbox, 'POST', '/_sandbox/faults', { kind: 'error_500', orderId: 'k3' });
    const serverError = await send('POST', '/v1/payment_intents', base('k3'), { 'idempotency-key': 'k3' });
    const unauthenticated = await fetch(`${t.sandbox.url}/v1/payment_intents/pi_x`);

    expect([mismatch.status, inFlight.status, serverError.status, unauthenticated.status]).toEqual([400, 409, 500, 401]);
    for (const body of [mismatch.json, inFlight.json, serverError.json, await unauthenticated.json()]) expectValid(stripeError, body);
  });

  it('a SEPA debit that failed once settled is a PaymentIntent, its embedded account a PaymentMethod', async () => {
    const created = await send('POST', '/v1/payment_intents', base('s5', { payment_method: 'pm_failedDelayed_de' }));
    t.sandbox.settle((created.json as { id: string }).id, 'failed');

    const retrieved = await send('GET', `/v1/payment_intents/${(created.json as { id: string }).id}`);

    expectValid(paymentIntent, retrieved.json);
    expectValid(
      paymentMethodSchema,
      (retrieved.json as { last_payment_error: { payment_method: unknown } }).last_payment_error.payment_method,
    );
  });

  it('retrieve answers a PaymentIntent, or a 404 error; every search result is a PaymentIntent', async () => {
    const created = await t.stripe.paymentIntents.create(chargeParams('r1'));

    const retrieved = await send('GET', `/v1/payment_intents/${created.id}`);
    const missing = await send('GET', '/v1/payment_intents/pi_missing');
    const search = await send('GET', `/v1/payment_intents/search?query=${encodeURIComponent("metadata['order_id']:'r1'")}`);

    expectValid(paymentIntent, retrieved.json);
    expect(missing.status).toBe(404);
    expectValid(stripeError, missing.json);
    const results = (search.json as { data: unknown[] }).data;
    expect(results).toHaveLength(1);
    for (const intent of results) expectValid(paymentIntent, intent);
  });

  it("customers, saved cards and their list are Stripe's Customer, PaymentMethod and list; their refusals are errors", async () => {
    const created = await send('POST', '/v1/customers', form({ email: 'shopper@example.test' }));
    const customer = (created.json as { id: string }).id;
    const attached = await send('POST', '/v1/payment_methods/pm_card_visa/attach', form({ customer }));
    const card = (attached.json as { id: string }).id;
    const updated = await send('POST', `/v1/customers/${customer}`, form({ 'invoice_settings[default_payment_method]': card }));
    const listed = await send('GET', `/v1/payment_methods?customer=${customer}&type=card&limit=1`);
    const unknown = await send('GET', '/v1/customers/cus_nobody');
    const foreign = await send('POST', '/v1/payment_intents', base('f1', { payment_method: card, customer: 'cus_stranger' }));

    for (const body of [created.json, updated.json, (await send('GET', `/v1/customers/${customer}`)).json])
      expectValid(customerSchema, body);
    expectValid(paymentMethodSchema, attached.json);
    expectValid(paymentMethodList, listed.json);
    expect([unknown.status, foreign.status]).toEqual([404, 400]);
    for (const body of [unknown.json, foreign.json]) expectValid(stripeError, body);
  });

  it('would catch an answer Stripe could not give (the check can fail)', () => {
    expect(paymentIntent({ id: 'pi_1', object: 'payment_intent', status: 'paid' })).toBe(false);
    expect(stripeError({ error: { type: 'card_declined' } })).toBe(false);
    expect(
      customerSchema({ id: 'cus_1', object: 'customer', created: 1, livemode: false, invoice_settings: { default_payment_method: 7 } }),
    ).toBe(false);
  });
});
