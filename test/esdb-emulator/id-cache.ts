/**
 * The server's committed-events cache (esdb.md §2.3): event id → where it was written, used only by
 * the `any` / `stream_exists` dedupe path. Bounded by an estimated byte size (8 MiB on a real server,
 * roughly the last 100 k events), evicted first-in-first-out, in memory only: `restart()` empties it.
 */
export interface CachedEvent {
  stream: string;
  revision: bigint;
  position: bigint;
}

export const SERVER_CACHE_BYTES = 8 * 1024 * 1024;

/** `16 + 4 + IntPtr.Size + MemSizer.SizeOf(streamName)`, as the server estimates an entry. */
export function entryCost(stream: string): number {
  return 16 + 4 + 8 + Math.ceil((20 + 2 * stream.length + 1) / 8) * 8;
}

export class CommittedEventIdCache {
  // A Map iterates in insertion order, which is exactly the server's FIFO queue; re-putting a key keeps its place.
  private readonly entries = new Map<string, CachedEvent>();
  private bytes = 0;

  constructor(private readonly capacityBytes = SERVER_CACHE_BYTES) {}

  get(id: string): CachedEvent | undefined {
    return this.entries.get(id);
  }

  put(id: string, event: CachedEvent): void {
    const previous = this.entries.get(id);
    if (previous) this.bytes -= entryCost(previous.stream);
    this.entries.set(id, event);
    this.bytes += entryCost(event.stream);
    while (this.bytes > this.capacityBytes) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, CachedEvent];
      this.entries.delete(oldest);
      this.bytes -= entryCost(evicted.stream);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
