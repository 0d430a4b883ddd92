/**
 * Lets a test hold every write at the door and wait until N appends are queued there, so "these appends
 * were in flight at the same time" is a fact the test arranges instead of a timing it hopes for.
 *
 * The door is the writer's queue, which lives in the node's memory: a node that stops drops what is held
 * there, never to be written (`drop()`; see `stop()` in index.ts for the server source).
 */
export class WriteGate {
  private held: { promise: Promise<boolean>; settle: (passes: boolean) => void } | undefined;
  private waiting = 0;
  private readonly watchers: Array<{ count: number; resolve: () => void }> = [];

  hold(): void {
    if (this.held) return;
    let settle!: (passes: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    this.held = { promise, settle };
  }

  /** The held writes go on to the writer, in arrival order. */
  release(): void {
    this.held?.settle(true);
    this.held = undefined;
  }

  /** The held writes are gone with the queue, and so is the hold. */
  drop(): void {
    this.held?.settle(false);
    this.held = undefined;
  }

  /** Resolves once `count` writes are waiting at the held gate. */
  whenWaiting(count: number): Promise<void> {
    if (this.waiting >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  /** True once the write may go on to the writer, false if it was dropped on the way. */
  async pass(): Promise<boolean> {
    if (!this.held) return true;
    const { promise } = this.held;
    this.waiting++;
    for (const watcher of this.watchers.filter((w) => this.waiting >= w.count)) {
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
    const passes = await promise;
    this.waiting--;
    return passes;
  }
}
