/**
 * A small LRU map bounded by a total weight (docs/results.md "Caching and speed"). The results module keeps
 * one entry per question: its answers and the unfiltered aggregates, tagged with the version they
 * were computed for. A Map iterates in insertion order, so re-inserting on every hit keeps the
 * least recently used entry first, and eviction takes from the front.
 */
export class WeightedLru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly maxEntries = Infinity,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    this.delete(key);
    // Something heavier than the whole cache is not kept at all.
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.total > this.maxWeight || this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  /** Every value, without touching the recency order. */
  *values(): IterableIterator<V> {
    for (const entry of this.entries.values()) yield entry.value;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }
}
