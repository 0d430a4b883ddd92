/**
 * Writes the writer has decided and put in the log but the index has not taken in yet: the only window
 * in which the server drops a duplicate unanswered (`IdempotentNotReady`). Server source
 * (kurrent-io/KurrentDB v24.10.5): `Services/Storage/StorageWriterService.cs`, `Handle(WritePrepares)`
 * runs `CheckCommit`, writes the prepares and calls `IndexWriter.PreCommit`, which puts the event ids
 * in the committed-events cache and the stream's new last event number in `_streamVersions`; the index
 * that reads, subscriptions and `_indexReader.GetStreamLastEventNumber` see takes the write in later,
 * in log order (`IndexCommitterService`). Here a write is pre-committed from its decision until its
 * delay (`setDelay`, the index lag) is over and every write decided before it is in the EventLog.
 */
export class PreIndex {
  private readonly streams = new Map<string, { last: bigint; writes: number }>();
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** `IndexWriter.GetStreamLastEventNumber` where it differs from the index: the last pre-committed event number. */
  lastRevision(stream: string): bigint | undefined {
    return this.streams.get(stream)?.last;
  }

  /**
   * Runs `index` once `delayMs` is over and every write scheduled before has been indexed; at once when
   * nothing waits and there is no delay, so a write is decided and indexed with nothing in between.
   * `reserved` is the stream and last event number the write pre-commits (none for an empty write).
   */
  schedule<T>(delayMs: number, index: () => T, reserved?: { stream: string; last: bigint }): Promise<T> {
    if (this.waiting === 0 && delayMs <= 0) return Promise.resolve(index());
    const entry = reserved && (this.streams.get(reserved.stream) ?? { last: reserved.last, writes: 0 });
    if (reserved && entry) {
      entry.last = reserved.last;
      entry.writes++;
      this.streams.set(reserved.stream, entry);
    }
    this.waiting++;
    const ready = new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs)));
    const indexed = Promise.all([ready, this.tail]).then(() => {
      this.waiting--;
      if (reserved && entry && --entry.writes === 0) this.streams.delete(reserved.stream);
      return index();
    });
    this.tail = indexed.catch(() => undefined);
    return indexed;
  }
}
