/** The global history one event at a time, read forwards in pages. */
import type { Checkpoint, EventStore, RecordedEvent } from '../../../src/event-store/event-store.port';

export class HistoryPages {
  private page: RecordedEvent[] = [];
  private index = 0;
  private after: Checkpoint | undefined;
  private ended = false;

  constructor(
    private readonly store: EventStore,
    private readonly pageSize: number,
    /** Checked before each page is read: aborted, `next` rejects with its reason. */
    private readonly signal?: AbortSignal,
  ) {}

  /** The next event, undefined at the end of history. */
  async next(): Promise<RecordedEvent | undefined> {
    if (this.index === this.page.length) {
      if (this.ended) return undefined;
      this.signal?.throwIfAborted();
      this.page = await this.store.readAll({ after: this.after, maxCount: this.pageSize });
      this.index = 0;
      this.ended = this.page.length < this.pageSize;
      if (!this.page.length) return undefined;
      this.after = this.page.at(-1)!.position;
    }
    return this.page[this.index++];
  }
}
