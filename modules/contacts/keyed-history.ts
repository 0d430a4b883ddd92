/**
 * An immutable keyed list of what a contact's stream applied (ContactState's records by source event id
 * and by import step), that grows by one entry per event in constant time. It replaced Maps copied whole
 * on every event (`new Map([...old, [key, value]])`): folding a contact of n events copied 1 + 2 + … + n
 * entries, quadratic in its history (a contact re-sent by every run of a daily pull for years).
 *
 * A history is a prefix (`size`) of one entries array that the histories grown from each other share.
 * `with` pushes onto that array when this history is its tip (the fold's case: each state is grown from
 * once), and copies its prefix when it is not (a state grown from twice: a retried decision on a loaded
 * state), so every history keeps seeing exactly the entries it was made with.
 */
interface Entries<V> {
  list: Array<{ key: string; value: V }>;
  /** The places in `list` of each key's entries, in order. */
  places: Map<string, number[]>;
}

export class KeyedHistory<V> {
  private constructor(
    private readonly entries: Entries<V>,
    private readonly size: number,
  ) {}

  static empty<V>(): KeyedHistory<V> {
    return new KeyedHistory<V>({ list: [], places: new Map() }, 0);
  }

  /** This history with one more entry under `key`. */
  with(key: string, value: V): KeyedHistory<V> {
    const entries = this.entries.list.length === this.size ? this.entries : this.prefix();
    add(entries, key, value);
    return new KeyedHistory(entries, this.size + 1);
  }

  /** The last entry under `key` (undefined: none). */
  last(key: string): V | undefined {
    const places = this.entries.places.get(key);
    if (!places) return undefined;
    for (let i = places.length - 1; i >= 0; i--) if (places[i] < this.size) return this.entries.list[places[i]].value;
    return undefined;
  }

  /** Every entry under `key`, oldest first (undefined: none). */
  all(key: string): V[] | undefined {
    const found = (this.entries.places.get(key) ?? []).filter((place) => place < this.size).map((place) => this.entries.list[place].value);
    return found.length ? found : undefined;
  }

  /** A copy of this history's entries alone, for a history grown from a state that was grown from already. */
  private prefix(): Entries<V> {
    const copy: Entries<V> = { list: [], places: new Map() };
    for (const { key, value } of this.entries.list.slice(0, this.size)) add(copy, key, value);
    return copy;
  }
}

function add<V>(entries: Entries<V>, key: string, value: V): void {
  const places = entries.places.get(key);
  if (places) places.push(entries.list.length);
  else entries.places.set(key, [entries.list.length]);
  entries.list.push({ key, value });
}
