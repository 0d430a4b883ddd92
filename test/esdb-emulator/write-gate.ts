/**
 * Lets a test hold every write at the door and wait until N appends are queued there, so "these appends
 * were in flight at the same time" is a fact the test arranges instead of a timing it hopes for.
 */
export class WriteGate {
  private held: { promise: Promise<void>; release: () => void } | undefined;
  private waiting = 0;
  private readonly watchers: Array<{ count: number; resolve: () => void }> = [];

  hold(): void {
    if (this.held) return;
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { promise, release };
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  /** Resolves once `count` writes are waiting at the held gate. */
  whenWaiting(count: number): Promise<void> {
    if (this.waiting >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  async pass(): Promise<void> {
    if (!this.held) return;
    const { promise } = this.held;
    this.waiting++;
    for (const watcher of this.watchers.filter((w) => this.waiting >= w.count)) {
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
    await promise;
    this.waiting--;
  }
}
