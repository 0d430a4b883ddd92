/**
 * The server's committed-events cache: event id → the stream and event number it was
 * written at, used by the `any` / `stream_exists` dedupe path and checked first by the exact path.
 * Server source (v24.10.4/v24.10.5): `Services/Storage/ReaderIndex/BoundedCache.cs` and
 * `IndexWriter.PreCommit`, which calls `PutRecord(id, info, throwOnDuplicate: false)` for every event
 * written: the entry an id already has is kept (the *first* revision wins), yet the key is queued and
 * its size counted again; `IsFull` evicts first-in-first-out; `RemoveRecord` subtracts only the one
 * entry. In memory only: `restart()` empties it. It holds no position: the dedupe answer reads it.
 */
export interface CachedEvent {
  stream: string;
  revision: bigint;
}

export const SERVER_CACHE_BYTES = 8 * 1024 * 1024;

/** `16 + 4 + IntPtr.Size + MemSizer.SizeOf(streamName)`, as the server estimates an entry. */
export function entryCost(stream: string): number {
  return 16 + 4 + 8 + Math.ceil((20 + 2 * stream.length + 1) / 8) * 8;
}

export class CommittedEventIdCache {
  private readonly entries = new Map<string, CachedEvent>();
  private queue: string[] = [];
  private head = 0;
  private bytes = 0;

  constructor(private readonly capacityBytes = SERVER_CACHE_BYTES) {}

  get(id: string): CachedEvent | undefined {
    return this.entries.get(id);
  }

  /** `PutRecord(key, value, throwOnDuplicate: false)`. */
  put(id: string, event: CachedEvent): void {
    while (this.bytes > this.capacityBytes && this.head < this.queue.length) this.remove(this.queue[this.head++]);
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.bytes += entryCost(event.stream);
    this.queue.push(id);
    if (!this.entries.has(id)) this.entries.set(id, event);
  }

  clear(): void {
    this.entries.clear();
    this.queue = [];
    this.head = 0;
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.bytes -= entryCost(old.stream);
    this.entries.delete(id);
  }
}
