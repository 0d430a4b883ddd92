import { EventEmitter } from 'node:events';

/** A committed create whose answer is being held back (`hold_after_commit`). */
export interface HeldResponse {
  requestId: string;
  orderId?: string;
  intentId?: string;
  idempotencyKey?: string;
  heldSince: string;
}

/**
 * Holds answers until a test releases them, so that a client process can be killed while its charge is
 * committed at the provider but not yet answered.
 */
export class HeldResponses {
  private readonly held = new Map<string, { response: HeldResponse; release: () => void }>();
  private readonly changes = new EventEmitter();

  /** Resolves when released (or when the sandbox shuts down). */
  hold(response: HeldResponse, shutdown: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.held.delete(response.requestId);
        shutdown.removeEventListener('abort', release);
        resolve();
      };
      if (shutdown.aborted) return resolve();
      this.held.set(response.requestId, { response, release });
      shutdown.addEventListener('abort', release);
      this.changes.emit('held');
    });
  }

  /** Releases the held answers (only those for `orderId` when given); returns how many. */
  release(orderId?: string): number {
    const matching = [...this.held.values()].filter((entry) => orderId === undefined || entry.response.orderId === orderId);
    for (const entry of matching) entry.release();
    return matching.length;
  }

  list(): HeldResponse[] {
    return [...this.held.values()].map((entry) => entry.response);
  }

  /** Resolves with the held answers once at least `count` are held, or after `timeoutMs` with what there is. */
  waitForCount(count: number, timeoutMs: number, shutdown: AbortSignal): Promise<HeldResponse[]> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.held.size < count && !shutdown.aborted) return;
        finish();
      };
      const finish = () => {
        clearTimeout(timer);
        this.changes.removeListener('held', check);
        shutdown.removeEventListener('abort', finish);
        resolve(this.list());
      };
      const timer = setTimeout(finish, timeoutMs);
      this.changes.on('held', check);
      shutdown.addEventListener('abort', finish);
      check();
    });
  }
}
