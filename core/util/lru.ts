/**
 * A map that keeps at most `capacity` entries, dropping the least recently used: per-club caches hold the
 * clubs in use, not every club the process has ever seen. `get` counts as a use.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>()

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`Lru: capacity must be a positive integer, got ${String(capacity)}`)
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined
    const value = this.#entries.get(key) as V
    // A Map iterates in insertion order: re-inserting moves the entry to the most recent end.
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  set(key: K, value: V): this {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K)
    return this
  }

  delete(key: K): boolean {
    return this.#entries.delete(key)
  }

  keys(): IterableIterator<K> {
    return this.#entries.keys()
  }
}
