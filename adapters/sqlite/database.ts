import { StorageConflict } from '../../core/errors.ts'
import type { SqliteDriver, SqliteRow, SqliteStatement, SqliteValue } from './driver.ts'

/** The adapter's view of a driver: cached statements and errors translated into core's vocabulary. */
export interface Database {
  run(sql: string, ...params: SqliteValue[]): number
  /** `run` of an INSERT: the rows it inserted and the rowid of the last of them. */
  insert(sql: string, ...params: SqliteValue[]): { changes: number; lastInsertRowid: number }
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
  const insert: Database['insert'] = (sql, ...params) => {
    try {
      return prepared(sql).run(...params)
    } catch (error) {
      throw driver.isConstraintViolation(error) ? new StorageConflict('constraint violated', { cause: error }) : error
    }
  }
  return {
    run: (sql, ...params) => insert(sql, ...params).changes,
    insert,
    get: (sql, ...params) => prepared(sql).get(...params),
    all: (sql, ...params) => prepared(sql).all(...params),
    exec: (sql) => driver.exec(sql),
  }
}

/**
 * One keyset page of a club's rows of `table`, highest id first (docs/decisions/0009-lists.md): two fixed
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

/** The largest number of rows one multi-row statement takes; the chunk sizes are the powers of two up to it. */
const MAX_ROWS_AT_ONCE = 256

/** One multi-row statement as run: its rows, how many it inserted or deleted, the last rowid inserted. */
export interface Chunk<T> {
  rows: T[]
  changes: number
  lastInsertRowid: number
}

/**
 * Writes many rows with few statements (one statement per row stood out in the profile of
 * bench:issue). `head` is the statement up to `VALUES` (or up to `IN (`), `tuple` one row's placeholders,
 * `tail` what follows the list. The rows go in chunks of 256, then powers of two (1,000 rows: 256 × 3,
 * 128, 64, 32, 8), each chunk one statement, in the order given, so that each table has at most nine
 * statement texts, each built and prepared once, with at most 256 × the row's parameters bound (far
 * below SQLite's 32,766). No `RETURNING`: measured, it cost more than the multi-row statement saved
 * (docs/benchmarks/history.md § Multi-row writes); ids come from `lastInsertRowid` instead.
 *
 * @example
 * const insert = rowsAtOnce(db, 'INSERT INTO events (club, type) VALUES', '(?, ?)')
 * insert.run(events, (event) => [event.club, event.type])
 */
export function rowsAtOnce(db: Database, head: string, tuple: string, tail = '') {
  const texts: string[] = []
  const textOf = (size: number) => (texts[size] ??= `${head} ${Array(size).fill(tuple).join(', ')} ${tail}`)
  return {
    /** Runs the statement over every row, chunk after chunk; returns each chunk as run. */
    run<T>(rows: T[], values: (row: T) => SqliteValue[]): Chunk<T>[] {
      const chunks: Chunk<T>[] = []
      let at = 0
      while (at < rows.length) {
        const left = rows.length - at
        const size = left >= MAX_ROWS_AT_ONCE ? MAX_ROWS_AT_ONCE : 2 ** Math.floor(Math.log2(left))
        const chunk = rows.slice(at, at + size)
        chunks.push({ rows: chunk, ...db.insert(textOf(size), ...chunk.flatMap(values)) })
        at += size
      }
      return chunks
    },
  }
}

/**
 * The ids a multi-row INSERT into a table keyed by its rowid gave, in the order of its rows: one
 * statement under the write lock numbers its rows one after the other (the largest id + 1 each, also
 * with AUTOINCREMENT), so the chunk's ids end at `lastInsertRowid`. Only for statements that insert
 * every row (no conflict clause).
 */
export const consecutiveIds = (chunks: Chunk<unknown>[]): number[] =>
  chunks.flatMap(({ rows, lastInsertRowid }) => rows.map((_, i) => lastInsertRowid - rows.length + 1 + i))
