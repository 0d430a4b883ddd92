import type { FaultKind } from './faults/fault';

/**
 * One provider API call as the sandbox saw it. `status` is null when no answer was sent (the
 * connection was dropped, reset or timed out): the client cannot know what happened, the log does.
 */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  idempotencyKey: string | null;
  orderId: string | null;
  status: number | null;
  replayed: boolean;
  fault: FaultKind | null;
  time: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  list(filter: { orderId?: string } = {}): RequestLogEntry[] {
    return this.entries.filter((entry) => filter.orderId === undefined || entry.orderId === filter.orderId);
  }

  clear(): void {
    this.entries = [];
  }
}
