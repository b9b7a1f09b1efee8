/** Rows go in and come out as copies, so that a caller never holds stored state. */
export const copy = <T>(value: T): T => structuredClone(value)

/** `list(...)` of any id-keyed rows: the club's, strictly below `beforeId`, highest id first, at most `limit`. */
export function keysetPage<T extends { id: number }>(rows: Iterable<T>, beforeId: number | null, limit: number): T[] {
  return [...rows]
    .filter((row) => beforeId === null || row.id < beforeId)
    .sort((a, b) => b.id - a.id)
    .slice(0, limit)
    .map(copy)
}
