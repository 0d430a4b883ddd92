/**
 * The provider keys an order has used, read from its history, and whether each may still be replayed.
 * Pure: the history and the time come in as data.
 */
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import { isNotSent, isProcessingAtProvider, type ChargeAttemptStarted, type ChargeRequested, type OrderEvent } from '../order.events';
import type { ChargeInstruction } from '../payment-gateway/payment-gateway.port';

/**
 * Stripe keeps a key's stored answer at least 24 hours ("Keys … may be removed from the system
 * automatically after they're at least 24 hours old, and a new request is generated if a key is reused
 * after the original is pruned", docs.stripe.com/api/idempotent_requests). Within that window, sending
 * the same create with the same key and parameters again returns the first answer: the authoritative
 * way to learn an unknown outcome. We replay only during the first 23 hours, an hour's margin for
 * clocks and for the time between our record of the attempt and Stripe's receipt of it.
 */
const PROVIDER_KEY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const SAFE_REPLAY_WINDOW_MS = PROVIDER_KEY_WINDOW_MS - 60 * 60 * 1000;

export interface ProviderKeyUse {
  /** The create exactly as it was sent under this key (same parameters, or the replay is refused). */
  instruction: ChargeInstruction;
  /** When the first attempt under the key was recorded (the key reached the provider no earlier). */
  firstUsedAt: Date;
  /** When the last attempt under the key was recorded (no request under it was sent earlier than that). */
  lastUsedAt: Date;
  /**
   * When the last attempt under the key that the provider did not answer was recorded: a request of
   * such an attempt may still be executing there. Undefined when the provider answered every attempt
   * under the key (its requests are all over there).
   */
  lastUnansweredAt?: Date;
}

/**
 * The outcome the worker records right after an attempt, when it is the provider's answer to that
 * attempt's request (which is then over at the provider), or says the provider ran none of it. A timeout
 * or reset answers nothing.
 */
function answersAttempt(event: RecordedEvent): boolean {
  const recorded = event as unknown as OrderEvent;
  switch (recorded.type) {
    case 'ChargeSucceeded':
    case 'ChargeFailed':
      return true;
    case 'ChargeOutcomeUnknown':
      // Not sent: the provider ran none of its tries (none connected, or each was rate limited), so no
      // request of the attempt can still be executing there.
      return isProcessingAtProvider(recorded) || isNotSent(recorded);
    case 'ChargeNeedsReview':
      return recorded.data.providerAnswered === true;
    default:
      return false;
  }
}

/** Every key the order sent to the provider (a key whose request never got an attempt was never sent). */
export function providerKeyUses(history: RecordedEvent[]): ProviderKeyUse[] {
  const requests = new Map<string, ChargeRequested['data']>();
  const uses = new Map<string, ProviderKeyUse>();
  // The attempt just recorded, until the event after it says whether the provider answered it.
  let open: { use: ProviderKeyUse; before: Date | undefined } | undefined;
  for (const event of history) {
    if (open && answersAttempt(event)) open.use.lastUnansweredAt = open.before;
    open = undefined;
    if (event.type === 'ChargeRequested') {
      const data = event.data as unknown as ChargeRequested['data'];
      requests.set(data.providerKey, data);
    } else if (event.type === 'ChargeAttemptStarted') {
      const { providerKey, paymentMethodId } = event.data as unknown as ChargeAttemptStarted['data'];
      const request = requests.get(providerKey);
      const at = new Date(event.metadata.recordedAt);
      const known = uses.get(providerKey);
      if (known) {
        open = { use: known, before: known.lastUnansweredAt };
        known.lastUsedAt = at;
        known.lastUnansweredAt = at;
      }
      if (!request || known) continue;
      const use: ProviderKeyUse = {
        instruction: {
          orderId: request.orderId,
          amount: request.amount,
          currency: request.currency,
          customerId: request.customerId,
          description: request.description,
          idempotencyKey: providerKey,
          // The key's first attempt chose the card; every later call under the key sends it again.
          ...(paymentMethodId !== undefined && { paymentMethodId }),
        },
        firstUsedAt: at,
        lastUsedAt: at,
        lastUnansweredAt: at,
      };
      uses.set(providerKey, use);
      open = { use, before: undefined };
    }
  }
  return [...uses.values()];
}

/** True while a replay of the key is sure to be answered from the provider's store (never executed anew). */
export function canReplay(use: Pick<ProviderKeyUse, 'firstUsedAt'>, now: Date): boolean {
  return now.getTime() - use.firstUsedAt.getTime() < SAFE_REPLAY_WINDOW_MS;
}
