/**
 * Things a process started, stopped newest first — what depends on a piece started after it. Every
 * stop is attempted even when an earlier one fails; the first failure is reported after the rest.
 */
export class StopStack {
  private readonly stops: Array<() => Promise<void>> = [];

  /** Registers how to stop `piece` and hands it back, so a start reads `const x = stack.push(await …)`. */
  push<T>(piece: T, stop: (piece: T) => Promise<void>): T {
    this.stops.push(() => stop(piece));
    return piece;
  }

  /** Stops everything pushed so far; a second call finds nothing left to stop. */
  async stopAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const stop of this.stops.splice(0).reverse()) await stop().catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  }
}
