/**
 * Writes the writer has decided and put in the log but the index has not taken in yet: the only window
 * in which the server drops a duplicate unanswered (`IdempotentNotReady`). Server source
 * (kurrent-io/KurrentDB v24.10.5): `Services/Storage/StorageWriterService.cs`, `Handle(WritePrepares)` and
 * `Handle(WriteDelete)` run `CheckCommit`, write the prepares and call `IndexWriter.PreCommit`, which puts the event
 * ids in the committed-events cache, the stream's new last event number in `_streamVersions` (a tombstone's is
 * `long.MaxValue`) and a metastream's data in `_streamRawMetas`, which `IndexWriter.IsSoftDeleted` reads; the index
 * that reads, subscriptions and `_indexReader.GetStreamLastEventNumber` see takes the write in later, in log order
 * (`IndexCommitterService`). Here a write is pre-committed from its decision until its delay (`setDelay`, the
 * index lag) is over and every write decided before it is in the EventLog.
 */
export class PreIndex {
  private readonly streams = new Map<string, { last: bigint; writes: number }>();
  private readonly softDeletes = new Map<string, { softDeleted: boolean; writes: number }>();
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** `IndexWriter.GetStreamLastEventNumber` where it differs from the index: the last pre-committed event number. */
  lastRevision(stream: string): bigint | undefined {
    return this.streams.get(stream)?.last;
  }

  /**
   * `IndexWriter.IsSoftDeleted` where a pre-committed write changed it: a soft delete not indexed yet (true), or an
   * append that re-creates a soft-deleted stream (`SoftUndeleteStream`, false). Undefined: the index decides.
   */
  softDeleted(stream: string): boolean | undefined {
    return this.softDeletes.get(stream)?.softDeleted;
  }

  /**
   * Runs `index` once `delayMs` is over and every write scheduled before has been indexed; at once when
   * nothing waits and there is no delay, so a write is decided and indexed with nothing in between.
   * `reserved` is the stream and last event number the write pre-commits (none for an empty write);
   * `marks` the stream whose soft deletion it changes, and how.
   */
  schedule<T>(
    delayMs: number,
    index: () => T,
    reserved?: { stream: string; last: bigint },
    marks?: { stream: string; softDeleted: boolean },
  ): Promise<T> {
    if (this.waiting === 0 && delayMs <= 0) return Promise.resolve(index());
    const release = [reserved && this.hold(this.streams, reserved.stream, { last: reserved.last })];
    release.push(marks && this.hold(this.softDeletes, marks.stream, { softDeleted: marks.softDeleted }));
    this.waiting++;
    const ready = new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs)));
    const indexed = Promise.all([ready, this.tail]).then(() => {
      this.waiting--;
      release.forEach((done) => done?.());
      return index();
    });
    this.tail = indexed.catch(() => undefined);
    return indexed;
  }

  /** Resolves once every write scheduled so far, and any scheduled meanwhile, is indexed. */
  async drained(): Promise<void> {
    while (this.waiting > 0) await this.tail;
  }

  /** Sets a stream's pre-committed value until the last write that set one is indexed. */
  private hold<V>(map: Map<string, V & { writes: number }>, stream: string, value: V): () => void {
    const entry = Object.assign(map.get(stream) ?? { writes: 0 }, value) as V & { writes: number };
    entry.writes++;
    map.set(stream, entry);
    return () => {
      if (--entry.writes === 0) map.delete(stream);
    };
  }
}
