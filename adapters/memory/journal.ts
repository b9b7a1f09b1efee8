import { StorageConflict } from '../../core/errors.ts'

/** Undo steps of the running unit of work, replayed in reverse on rollback. */
export type Journal = (() => void)[]

/** Sets `map[key] = value` and records how to undo it. */
export function put<K, V>(journal: Journal, map: Map<K, V>, key: K, value: V): void {
  const had = map.has(key)
  const before = map.get(key)
  map.set(key, value)
  journal.push(() => (had ? map.set(key, before as V) : map.delete(key)))
}

export function remove<K, V>(journal: Journal, map: Map<K, V>, key: K): boolean {
  if (!map.has(key)) return false
  const before = map.get(key) as V
  map.delete(key)
  journal.push(() => map.set(key, before))
  return true
}

/**
 * `put` of a row that must be new: an existing key throws `StorageConflict` (the ports' `insert`
 * contract) and writes nothing. `conflict` is the error's message.
 */
export function putNew<K, V>(journal: Journal, map: Map<K, V>, key: K, value: V, conflict: string): void {
  if (map.has(key)) throw new StorageConflict(conflict)
  put(journal, map, key, value)
}
