import Database from 'better-sqlite3'
import type { SqliteDriver, SqliteRow, SqliteValue } from './driver.ts'

/** The Node driver: better-sqlite3 on a database file (or `:memory:`). */
export function betterSqlite3Driver(filename: string): SqliteDriver {
  const db = new Database(filename)
  return {
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql)
      return {
        run: (...params: SqliteValue[]) => {
          const { changes, lastInsertRowid } = statement.run(...params)
          return { changes, lastInsertRowid: Number(lastInsertRowid) }
        },
        get: (...params: SqliteValue[]) => statement.get(...params) as SqliteRow | undefined,
        all: (...params: SqliteValue[]) => statement.all(...params) as SqliteRow[],
      }
    },
    isConstraintViolation: (error) => error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CONSTRAINT'),
    close: () => void db.close(),
  }
}
