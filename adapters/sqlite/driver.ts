/**
 * The seam between the SQLite adapter and a concrete driver (better-sqlite3 on Node, node:sqlite on
 * Deno). Drivers hold no SQL: everything else lives in the adapter, once.
 */
export type SqliteValue = string | number | bigint | null | Uint8Array

export type SqliteRow = Record<string, SqliteValue>

export interface SqliteStatement {
  /** `lastInsertRowid`: the rowid of the last row inserted on the connection (SQLite's last_insert_rowid()). */
  run(...params: SqliteValue[]): { changes: number; lastInsertRowid: number }
  /** The first row, or `undefined`. Rows are plain objects. */
  get(...params: SqliteValue[]): SqliteRow | undefined
  all(...params: SqliteValue[]): SqliteRow[]
}

export interface SqliteDriver {
  /** Runs one or more statements without results (migrations, pragmas, BEGIN/COMMIT). */
  exec(sql: string): void
  /** A prepared statement; the adapter caches them, the driver need not. */
  prepare(sql: string): SqliteStatement
  /** Whether `error` is a UNIQUE, PRIMARY KEY or other constraint violation. */
  isConstraintViolation(error: unknown): boolean
  close(): void
}
