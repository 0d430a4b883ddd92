import Stripe from 'stripe';
import { createSandbox, type Fault, type Sandbox, type SandboxOptions, type SandboxSignalMap } from './index';

/**
 * Test fixture: a sandbox on a random port plus the official SDK pointed at it, configured as Idem's
 * adapter will be (no hidden SDK retries unless a test asks for them).
 */
export interface SandboxUnderTest {
  sandbox: Sandbox;
  stripe: Stripe;
}

/** The customer `chargeParams` charges. */
export const SHOPPER = 'cus_shopper_1';

/** The sandbox holds SHOPPER from the start: a PaymentIntent for a customer it does not hold is refused, as at Stripe. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxUnderTest> {
  const sandbox = await createSandbox(options);
  sandbox.createCustomer({ id: SHOPPER });
  return { sandbox, stripe: stripeFor(sandbox) };
}

export function stripeFor(sandbox: Sandbox, config: Partial<Stripe.StripeConfig> = {}, apiKey = 'sk_test_x'): Stripe {
  return new Stripe(apiKey, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0, ...config });
}

export function chargeParams(orderId: string, overrides: Partial<Stripe.PaymentIntentCreateParams> = {}): Stripe.PaymentIntentCreateParams {
  return {
    amount: 4200,
    currency: 'eur',
    customer: SHOPPER,
    description: `Order ${orderId}`,
    metadata: { order_id: orderId },
    payment_method: 'pm_card_visa',
    confirm: true,
    // A background charge of a saved card, as Idem's gateway sends it (no return_url needed).
    off_session: true,
    ...overrides,
  };
}

/** Calls the control API (`/_sandbox/…`) the way an out-of-process test would. */
export async function control<T = Record<string, unknown>>(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Resolves with the next signal of that kind that satisfies `matches`. */
export function nextSignal<K extends keyof SandboxSignalMap>(
  sandbox: Sandbox,
  name: K,
  matches: (payload: SandboxSignalMap[K][0]) => boolean = () => true,
): Promise<SandboxSignalMap[K][0]> {
  const signals = sandbox.signals as unknown as NodeJS.EventEmitter;
  return new Promise((resolve) => {
    const listener = (payload: SandboxSignalMap[K][0]) => {
      if (!matches(payload)) return;
      signals.off(name, listener);
      resolve(payload);
    };
    signals.on(name, listener);
  });
}

/** The rejection of a promise expected to fail, typed for assertions. */
export async function failureOf(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** Arms a fault through the control API, as an out-of-process test would. */
export async function injectFault(sandbox: Sandbox, spec: Record<string, unknown>): Promise<Fault> {
  const { status, body } = await control<{ fault?: Fault; error?: string }>(sandbox, 'POST', '/_sandbox/faults', spec);
  if (status !== 201 || !body.fault) throw new Error(`fault ${JSON.stringify(spec)} refused: ${status} ${body.error}`);
  return body.fault;
}
