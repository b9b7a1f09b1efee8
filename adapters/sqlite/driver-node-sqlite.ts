import type { SqliteDriver, SqliteRow, SqliteValue } from './driver.ts'

/** The part of `node:sqlite` this driver uses (typed here: @types/node 20 has no `node:sqlite`). */
interface NodeSqlite {
  DatabaseSync: new (filename: string) => {
    exec(sql: string): void
    prepare(sql: string): {
      run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint }
      get(...params: SqliteValue[]): object | undefined
      all(...params: SqliteValue[]): object[]
    }
    close(): void
  }
}

/** SQLite's primary result code for every constraint violation; extended codes keep it in the low byte. */
const SQLITE_CONSTRAINT = 19

/**
 * The Deno driver (also Node ≥ 22.5): `node:sqlite`'s DatabaseSync on a database file (or `:memory:`).
 * The module is fetched with `process.getBuiltinModule` when the driver is opened, not imported at load
 * time, so that importing this file never fails on a Node without `node:sqlite`.
 *
 * @example
 * const storage = createSqliteStorage({ driver: nodeSqliteDriver('data/clubcred.db') })
 */
export function nodeSqliteDriver(filename: string): SqliteDriver {
  const sqlite = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined
  if (!sqlite) throw new TypeError(`node:sqlite is not available on this runtime (${process.version}): use Deno 2 or Node >= 22.5, or betterSqlite3Driver`)
  const db = new sqlite.DatabaseSync(filename)
  // node:sqlite rows have a null prototype: spread them so that rows leave the driver as plain objects.
  const plain = (row: object) => ({ ...row }) as SqliteRow
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql)
      return {
        run: (...params: SqliteValue[]) => {
          const { changes, lastInsertRowid } = statement.run(...params)
          return { changes: Number(changes), lastInsertRowid: Number(lastInsertRowid) }
        },
        get: (...params: SqliteValue[]) => {
          const row = statement.get(...params)
          return row === undefined ? undefined : plain(row)
        },
        all: (...params: SqliteValue[]) => statement.all(...params).map(plain),
      }
    },
    isConstraintViolation: (error) => {
      if (!(error instanceof Error)) return false
      const { errcode, code } = error as Error & { errcode?: unknown; code?: unknown }
      if (typeof errcode === 'number') return (errcode & 0xff) === SQLITE_CONSTRAINT
      if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) return true
      return /constraint failed/i.test(error.message)
    },
    close: () => db.close(),
  }
}
