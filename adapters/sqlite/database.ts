import { StorageConflict } from '../../core/errors.ts'
import type { SqliteDriver, SqliteRow, SqliteStatement, SqliteValue } from './driver.ts'

/** The adapter's view of a driver: cached statements and errors translated into core's vocabulary. */
export interface Database {
  run(sql: string, ...params: SqliteValue[]): number
  get(sql: string, ...params: SqliteValue[]): SqliteRow | undefined
  all(sql: string, ...params: SqliteValue[]): SqliteRow[]
  exec(sql: string): void
}

export function createDatabase(driver: SqliteDriver): Database {
  const statements = new Map<string, SqliteStatement>()
  const prepared = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) statements.set(sql, (statement = driver.prepare(sql)))
    return statement
  }
  return {
    run(sql, ...params) {
      try {
        return prepared(sql).run(...params).changes
      } catch (error) {
        if (driver.isConstraintViolation(error)) throw new StorageConflict('constraint violated', { cause: error })
        throw error
      }
    },
    get: (sql, ...params) => prepared(sql).get(...params),
    all: (sql, ...params) => prepared(sql).all(...params),
    exec: (sql) => driver.exec(sql),
  }
}

export const bool = (value: SqliteValue | undefined): boolean => value === 1 || value === 1n
export const num = (value: SqliteValue | undefined): number => Number(value)
export const str = (value: SqliteValue | undefined): string => String(value)
export const json = <T>(value: SqliteValue | undefined): T => JSON.parse(String(value)) as T
export const nullableStr = (value: SqliteValue | undefined): string | null => (value === null || value === undefined ? null : String(value))
export const nullableNum = (value: SqliteValue | undefined): number | null => (value === null || value === undefined ? null : Number(value))

/**
 * One keyset page of a club's rows of `table`, highest id first (docs/decisions.md, Lists): two fixed
 * statements, so that each is prepared once and uses the `(club, id)` index.
 */
export function clubPage(
  db: Database,
  table: 'achievements' | 'designs' | 'events',
  club: string,
  page: { limit: number; beforeId: number | null },
): SqliteRow[] {
  return page.beforeId === null
    ? db.all(`SELECT * FROM ${table} WHERE club = ? ORDER BY id DESC LIMIT ?`, club, page.limit)
    : db.all(`SELECT * FROM ${table} WHERE club = ? AND id < ? ORDER BY id DESC LIMIT ?`, club, page.beforeId, page.limit)
}
