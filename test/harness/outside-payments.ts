/**
 * The charge worker's look-up of payments made outside Idem, for specs whose database holds only the
 * event store (no payments tables): nothing was ever paid outside Idem there. Specs with the app's
 * database read the real table instead (WebhookDeliveries).
 */
import type { OutsidePayments } from '../../modules/payments';

export const noOutsidePayments: OutsidePayments = { outsidePaymentsFor: () => Promise.resolve([]) };
