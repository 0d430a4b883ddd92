import { CustomersStore } from './customers/customers.store';
import { FaultPlan } from './faults/fault-plan';
import { HeldResponses } from './faults/held-responses';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { IntentsStore } from './payment-intents/intents.store';
import { RequestLog } from './request-log';
import type { SandboxJournal } from './sandbox-journal';
import type { SandboxSignals } from './sandbox-signals';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher';

/** Everything the provider knows, shared by the Stripe API routes and the control routes. */
export interface SandboxState {
  clock: () => number;
  intents: IntentsStore;
  customers: CustomersStore;
  idempotency: IdempotencyStore;
  faults: FaultPlan;
  held: HeldResponses;
  requestLog: RequestLog;
  webhooks: WebhookDispatcher;
  signals: SandboxSignals;
  /** Aborted by close(): every held or delayed request lets go of its connection. */
  shutdown: AbortSignal;
  /** Where the provider's state is kept across restarts, when the sandbox was given a directory. */
  journal?: SandboxJournal;
}

export function createSandboxState(
  clock: () => number,
  parts: Pick<SandboxState, 'webhooks' | 'signals' | 'shutdown'>,
  searchLagMs?: number,
): SandboxState {
  return {
    clock,
    intents: new IntentsStore(clock, searchLagMs),
    customers: new CustomersStore(clock),
    idempotency: new IdempotencyStore(clock),
    faults: new FaultPlan(),
    held: new HeldResponses(),
    requestLog: new RequestLog(),
    ...parts,
  };
}

/** `POST /_sandbox/reset`: forget everything; held answers are released so no client hangs forever. */
export function resetSandboxState(state: SandboxState): void {
  state.faults.clear();
  state.held.release();
  state.intents.clear();
  state.customers.clear();
  state.idempotency.clear();
  state.requestLog.clear();
  state.webhooks.clear();
  state.journal?.clear();
}
