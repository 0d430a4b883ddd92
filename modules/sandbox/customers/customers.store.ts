import { newCustomerId, newPaymentMethodId } from '../stripe-ids';

export interface StoredCustomer {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  defaultPaymentMethod: string | null;
}

/** A new customer's fields before anything is set. */
export function blankCustomer(): Omit<StoredCustomer, 'id' | 'created'> {
  return { email: null, name: null, description: null, metadata: {}, defaultPaymentMethod: null };
}

/** A PaymentMethod made by attaching one of Stripe's test methods to a customer. */
export interface StoredPaymentMethod {
  id: string;
  customer: string;
  created: number;
  /** The test method it was made from (`pm_card_visa`, `pm_card_chargeDeclined`, …): it is charged as that one. */
  testMethod: string;
}

/**
 * Customers and the PaymentMethods attached to them. Attaching one of Stripe's test PaymentMethods
 * (`pm_card_visa`, …) makes a new PaymentMethod of that card, owned by the customer: in test mode
 * those ids stand for card numbers, and every use of one creates a fresh PaymentMethod
 * (docs.stripe.com/testing, "PaymentMethods" test values). The test ids themselves belong to no
 * customer, so they still pay for any customer, as in Stripe's test mode.
 */
export class CustomersStore {
  private readonly customers = new Map<string, StoredCustomer>();
  private readonly paymentMethods = new Map<string, StoredPaymentMethod>();
  /** Told every customer as it is after a change, and every new PaymentMethod (the sandbox journal). */
  onCustomer?: (customer: StoredCustomer) => void;
  onPaymentMethod?: (method: StoredPaymentMethod) => void;

  constructor(private readonly clock: () => number) {}

  create(fields: Omit<StoredCustomer, 'id' | 'created'>, id = newCustomerId()): StoredCustomer {
    const customer = { id, created: this.nowSeconds(), ...fields };
    this.onCustomer?.(customer);
    this.customers.set(customer.id, customer);
    return customer;
  }

  /** Changes a customer's fields (the customer must exist); what is not in `fields` stays. */
  update(id: string, fields: Partial<Omit<StoredCustomer, 'id' | 'created'>>): StoredCustomer {
    const current = this.customers.get(id);
    if (!current) throw new Error(`no customer ${id}`);
    const updated = { ...current, ...fields };
    this.onCustomer?.(updated);
    this.customers.set(id, updated);
    return updated;
  }

  /** A customer or PaymentMethod read back from the journal (modules/sandbox/sandbox-journal.ts). */
  restoreCustomer(customer: StoredCustomer): void {
    this.customers.set(customer.id, customer);
  }

  restorePaymentMethod(method: StoredPaymentMethod): void {
    this.paymentMethods.set(method.id, method);
  }

  allCustomers(): StoredCustomer[] {
    return [...this.customers.values()];
  }

  /** In the order they were attached. */
  allPaymentMethods(): StoredPaymentMethod[] {
    return [...this.paymentMethods.values()];
  }

  get(id: string): StoredCustomer | undefined {
    return this.customers.get(id);
  }

  paymentMethod(id: string): StoredPaymentMethod | undefined {
    return this.paymentMethods.get(id);
  }

  attach(testMethod: string, customer: string): StoredPaymentMethod {
    const attached = { id: newPaymentMethodId(), customer, created: this.nowSeconds(), testMethod };
    this.onPaymentMethod?.(attached);
    this.paymentMethods.set(attached.id, attached);
    return attached;
  }

  /** Newest first, like Stripe's lists. */
  paymentMethodsOf(customer: string): StoredPaymentMethod[] {
    return [...this.paymentMethods.values()].filter((method) => method.customer === customer).reverse();
  }

  clear(): void {
    this.customers.clear();
    this.paymentMethods.clear();
  }

  private nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }
}
