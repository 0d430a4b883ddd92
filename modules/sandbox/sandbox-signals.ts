import { EventEmitter } from 'node:events';
import type { Fault } from './faults/fault';
import type { HeldResponse } from './faults/held-responses';
import type { PaymentIntent } from './payment-intents/payment-intent';
import type { RequestLogEntry } from './request-log';
import type { DeliveryAttempt } from './webhooks/deliver-event';

export interface FaultStruck {
  fault: Fault;
  requestId: string;
  orderId: string | null;
}

/**
 * What happened inside the sandbox, as events an in-process test can wait on instead of sleeping
 * (e.g. "the latency fault has the request, now send the duplicate").
 */
export interface SandboxSignalMap {
  'request-logged': [RequestLogEntry];
  'fault-struck': [FaultStruck];
  'intent-committed': [PaymentIntent];
  'response-held': [HeldResponse];
  'webhook-attempted': [DeliveryAttempt];
}

export class SandboxSignals extends EventEmitter<SandboxSignalMap> {}
