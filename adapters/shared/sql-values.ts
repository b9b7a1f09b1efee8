/**
 * Readers of column values, for the row mappers of both SQL adapters (rows.ts) and their stores. They
 * take either driver's values: SQLite hands booleans over as 0/1, PostgreSQL as booleans; PostgreSQL
 * hands int8 over as strings, and every id and ms timestamp stays below 2^53 (ids are random up to
 * there, times are ms since 1970), so `Number` is exact.
 */
export type SqlRow = Record<string, unknown>

export const num = (value: unknown): number => Number(value)
export const str = (value: unknown): string => String(value)
export const bool = (value: unknown): boolean => value === true || value === 1 || value === 1n
export const json = <T>(value: unknown): T => JSON.parse(String(value)) as T
export const nullableStr = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
export const nullableNum = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))
