/**
 * The charge worker for one order: record the intent, call the provider with the persisted key,
 * record the outcome — each append at the exact revision it decided on, so two workers racing on one
 * order cannot both charge: the loser's append conflicts and it stops. The job is acknowledged only
 * after the outcome is recorded; an unknown outcome throws so the queue retries (verify first).
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { WrongExpectedVersion } from '../../../src/event-store/errors';
import type { EventStore } from '../../../src/event-store/event-store.port';
import type { CommandMetadata } from '../../../src/command-handling/event-to-append';
import type { LoadedOrder } from '../load-order';
import { orderCommands } from '../order.commands';
import { isProcessingAtProvider, orderStream, type ChargeOutcomeUnknown, type OrderEvent } from '../order.events';
import type { PaymentGateway, SavedPaymentMethod } from '../payment-gateway/payment-gateway.port';
import type { OrderState } from '../order.state';
import { decideNextStep, decideOutcome, decideProcessingCheck, decideVerification, stopRuleReached } from './charge-order.decision';
import { reportNeedsReview } from '../needs-review.alert';
import { canReplay, providerKeyUses } from './provider-keys';
import type { OutsidePayments } from './outside-payments.decision';

export interface ChargeOrderDeps {
  store: EventStore;
  gateway: PaymentGateway;
  workerId: string;
  /**
   * The request of a person who asked for this run (support's reconcile): its events then name that
   * person as actor and that request as cause, instead of the worker and the job.
   */
  requestedBy?: CommandMetadata;
  /**
   * Payments made outside Idem whose webhook came before the order existed, checked before a first
   * attempt (the worker's task and recovery read them from the database: WebhookDeliveries). Required:
   * a run without the check could charge an order a customer already paid outside Idem.
   */
  outsidePayments: OutsidePayments;
  now?: () => Date;
  /** An attempt younger than this is left to the worker that started it (default {@link DEFAULT_ATTEMPT_LEASE_MS}). */
  attemptLeaseMs?: number;
}

/**
 * `left_to_other_worker`: an attempt without an outcome is inside its lease. `contended`: other
 * writers (workers, webhooks, recovery) changed the order in each of this run's rounds, so it never got
 * to record its step; nothing says anyone holds the order now.
 */
export type ChargeOrderResult = 'settled' | 'nothing_to_do' | 'left_to_other_worker' | 'contended';

const ROUNDS = 4;

/** How long an attempt without an outcome is left to the worker that started it. */
export const DEFAULT_ATTEMPT_LEASE_MS = 60_000;

/** Thrown when other writers won every round: the queue retries the job, which reads the order again. */
export class ChargeOrderContended extends Error {
  /** Expected, and resolved by the queue's retry: the job log says it in one warning line (src/jobs/job-log.ts). */
  readonly expectedRetry = true;

  constructor(readonly orderId: string) {
    super(`Order ${orderId} changed under this run in each of its ${ROUNDS} rounds (other writers); the job is retried to look again`);
  }
}

/** Thrown after an unknown outcome is recorded: the queue retries the job later, which verifies first. */
export class ChargeOutcomeStillUnknown extends Error {
  /** Expected, and resolved by the queue's retry: the job log says it in one warning line (src/jobs/job-log.ts). */
  readonly expectedRetry = true;

  constructor(
    readonly orderId: string,
    reason: string,
  ) {
    super(`Outcome of the charge for order ${orderId} is unknown (${reason}); it will be verified and retried`);
  }
}

/**
 * Thrown after the provider's "processing" answer is recorded: the payment is in flight (a bank debit
 * settles days later), so the queue retries the job with its growing backoff and the retry checks it
 * again under the same key. Not an unknown outcome: it never counts towards the stop rule.
 */
export class ChargeStillProcessing extends ChargeOutcomeStillUnknown {
  constructor(orderId: string, reason: string) {
    super(orderId, reason);
    this.message = `The charge for order ${orderId} is processing at the provider (${reason}); it will be checked again later under the same key`;
  }
}

/** Thrown when the customer's card could not be looked up (timeout, 5xx): nothing was sent, the queue retries. */
export class PaymentMethodLookupFailed extends Error {
  /** Expected, and resolved by the queue's retry: the job log says it in one warning line (src/jobs/job-log.ts). */
  readonly expectedRetry = true;

  constructor(
    readonly orderId: string,
    reason: string,
  ) {
    super(`The card to charge for order ${orderId} could not be looked up (${reason}); nothing was charged, it will be retried`);
  }
}

const logger = new Logger('ChargeOrder');

/**
 * The queue's entry for a charge job: the job ends only when the order's outcome is recorded (or
 * there was nothing to charge). An attempt still inside its lease with no outcome looks the same in
 * the stream whether its run is alive or already over — this job's own earlier run, say, whose
 * outcome append failed with something other than a conflict — so nothing proves another run holds
 * it. The job therefore fails and the queue retries it; once the lease has passed, a retry verifies
 * with the provider and records what it finds.
 */
export async function runChargeOrderJob(
  deps: ChargeOrderDeps,
  orderId: string,
  jobId: string,
): Promise<Exclude<ChargeOrderResult, 'left_to_other_worker' | 'contended'>> {
  const result = await chargeOrder(deps, orderId, jobId);
  if (result === 'left_to_other_worker')
    throw new ChargeOutcomeStillUnknown(orderId, 'an attempt without a recorded outcome is still inside its lease');
  if (result === 'contended') throw new ChargeOrderContended(orderId);
  return result;
}

/**
 * The card this attempt charges: the one the key's first attempt recorded (a call under the key must
 * repeat its parameters), else the customer's saved card as the provider holds it now.
 */
async function paymentMethodFor(deps: ChargeOrderDeps, state: OrderState): Promise<SavedPaymentMethod> {
  if (state.paymentMethodId !== undefined) return { kind: 'found', paymentMethodId: state.paymentMethodId };
  return deps.gateway.savedPaymentMethod(state.customerId);
}

async function keyMayHaveExpired(store: EventStore, orderId: string, providerKey: string, now: Date): Promise<boolean> {
  const use = providerKeyUses(await store.readStream(orderStream(orderId))).find((u) => u.instruction.idempotencyKey === providerKey);
  return use !== undefined && !canReplay(use, now);
}

/** What the queue is told after an open outcome is recorded: either way it retries the job later. */
const stillOpen = (event: ChargeOutcomeUnknown) =>
  isProcessingAtProvider(event)
    ? new ChargeStillProcessing(event.data.orderId, event.data.error)
    : new ChargeOutcomeStillUnknown(event.data.orderId, event.data.error);

export async function chargeOrder(deps: ChargeOrderDeps, orderId: string, jobId = 'inline'): Promise<ChargeOrderResult> {
  const now = deps.now ?? (() => new Date());
  const metadata: CommandMetadata = deps.requestedBy
    ? { ...deps.requestedBy, correlationId: orderId }
    : { correlationId: orderId, causationId: jobId, actor: { role: 'worker', tokenId: deps.workerId } };
  // Each step was decided on `from` (and the provider called on it): recorded at exactly its revision,
  // with no re-read; a conflict ends the round below, which looks again.
  // `freshIds`: a step keyed by this run's claim can never be a retry the store recognises, so its
  // answer carries the event as appended, and the step after it links to it without a read.
  // Correlated with the request that asked for this charge (its X-Request-Id), caused by this job (or
  // by the support request that asked for this run).
  const record = (from: LoadedOrder, event: OrderEvent, step: string, freshIds = false) =>
    orderCommands.handle(deps.store, orderId, () => [{ event, key: step }], {
      metadata: { ...metadata, correlationId: from.state.correlationId ?? orderId },
      now,
      from,
      freshIds,
    });
  // What this run claims (an attempt) or concludes from its own look at the provider (a verified
  // outcome) is its alone. Were those events' ids the same for every run, the store would take a
  // second run's event at the same revision for a retry of the first (same id, same place: an
  // idempotent re-append) instead of a conflict, and both would go on: to the provider, or believing
  // their own conclusion was recorded.
  const claim = randomUUID();
  /** An outcome this run found by asking the provider about an open one: recorded as the run's own. */
  const recordVerified = async (loaded: LoadedOrder, verified: OrderEvent, r: string): Promise<'settled'> => {
    await record(loaded, verified, `verified/${r}/${loaded.state.attempts}/${claim}`);
    if (verified.type === 'ChargeNeedsReview') reportNeedsReview(orderId, verified.data.reason);
    if (verified.type === 'ChargeOutcomeUnknown') throw stillOpen(verified);
    return 'settled';
  };

  for (let round = 0; round < ROUNDS; round++) {
    const loaded = await orderCommands.load(deps.store, orderId);
    const { state } = loaded;
    // Looked up after the order is read: a webhook that found no order remembers its payment and then
    // looks at the order again (receive-webhook), so either this look sees the payment and nothing is
    // charged, or that second look sees this request and sends the order to review itself (naming the
    // payment, after this attempt charged in the worst case: a refund to make, as for a late webhook).
    const outside = state.exists && state.status === 'pending' ? await deps.outsidePayments.outsidePaymentsFor(orderId) : [];
    const step = decideNextStep(state, now(), deps.attemptLeaseMs ?? DEFAULT_ATTEMPT_LEASE_MS, outside);
    const r = `r${state.requestNumber}`;
    try {
      if (step.kind === 'nothing') return 'nothing_to_do';
      if (step.kind === 'leave_to_other_worker') return 'left_to_other_worker';
      if (step.kind === 'review_outside_payments') {
        const reviews = step.events.map((event) => ({ event, key: `outside-payment/${r}/${event.data.paymentIntentId}` }));
        await orderCommands.handle(deps.store, orderId, () => reviews, {
          metadata: { ...metadata, correlationId: state.correlationId ?? orderId },
          now,
          from: loaded,
        });
        for (const { event } of reviews) reportNeedsReview(orderId, event.data.reason);
        return 'settled';
      }
      if (step.kind === 'review') {
        await record(loaded, step.event, `review/${r}/${state.attempts}`);
        reportNeedsReview(orderId, step.event.data.reason);
        return 'settled';
      }
      let attempt = state.attempts + 1;
      if (step.kind === 'verify' && state.processingPaymentIntentId !== undefined) {
        // A payment the provider said is processing is looked at by its id alone (a GET), and only a
        // change is recorded; see decideProcessingCheck.
        const check = decideProcessingCheck(state, await deps.gateway.retrievePayment(state.processingPaymentIntentId), now());
        if (check.kind === 'still_processing') throw new ChargeStillProcessing(orderId, check.reason);
        if (check.kind === 'record') return await recordVerified(loaded, check.event, r);
      }
      if (step.kind === 'verify') {
        // Within the key window the attempt below is the verification: the same create under the same
        // key and parameters is answered with what happened (stripe: a stored answer is replayed). Only
        // a key that may have expired is verified by search, which could otherwise lag behind.
        const verified = (await keyMayHaveExpired(deps.store, orderId, state.providerKey, now()))
          ? decideVerification(state, await deps.gateway.findPayments(orderId))
          : undefined;
        if (verified) return await recordVerified(loaded, verified, r);
      } else {
        attempt = step.attempt;
      }

      const card = await paymentMethodFor(deps, state);
      if (card.kind === 'unknown') throw new PaymentMethodLookupFailed(orderId, card.error);
      if (card.kind === 'rejected') {
        // No customer record or no saved card: nothing was sent, a person takes it (DESIGN §7.5).
        const review = decideOutcome(state, attempt, card);
        await record(loaded, review, `no-payment-method/${r}/${attempt}`);
        if (review.type === 'ChargeNeedsReview') reportNeedsReview(orderId, review.data.reason);
        return 'settled';
      }
      const { paymentMethodId } = card;
      const attemptStarted: OrderEvent = {
        type: 'ChargeAttemptStarted',
        data: { orderId, attempt, workerId: deps.workerId, providerKey: state.providerKey, paymentMethodId },
      };
      const started = await record(loaded, attemptStarted, `attempt-started/${r}/${attempt}/${claim}`, true);
      const outcome = await deps.gateway.charge({
        orderId,
        amount: state.amount,
        currency: state.currency,
        customerId: state.customerId,
        description: state.description,
        idempotencyKey: state.providerKey,
        paymentMethodId,
      });
      // The key's earlier request is still running at the provider: this call was not run, so there is
      // no outcome to record (and none to count as unknown); its answer is asked for again later.
      if (outcome.kind === 'in_progress') throw new ChargeOutcomeStillUnknown(orderId, outcome.reason);
      const event = decideOutcome(state, attempt, outcome);
      const afterOutcome = await record(started, event, `outcome/${r}/${attempt}`);
      if (event.type === 'ChargeNeedsReview') reportNeedsReview(orderId, event.data.reason);
      if (event.type === 'ChargeOutcomeUnknown') {
        const reason = stopRuleReached(state, event);
        if (reason !== undefined) {
          await record(afterOutcome, { type: 'ChargeNeedsReview', data: { orderId, reason } }, `review/${r}/${attempt}`);
          reportNeedsReview(orderId, reason);
          return 'settled';
        }
        throw stillOpen(event);
      }
      return 'settled';
    } catch (error) {
      // Someone else (another worker, a webhook, recovery) wrote first: look again at what is recorded.
      if (error instanceof WrongExpectedVersion) {
        logger.debug(`order ${orderId}: concurrent writer at revision ${error.actual}; re-reading`);
        continue;
      }
      throw error;
    }
  }
  return 'contended';
}
