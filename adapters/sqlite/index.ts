/**
 * @module clubcred/sqlite: SQLite storage. One adapter, two drivers: better-sqlite3 on Node and
 * node:sqlite on Deno, chosen by the caller so that Deno never loads the native module.
 */
export { createSqliteStorage, type SqliteStorageOptions } from './storage.ts'
export type { SqliteDriver, SqliteStatement, SqliteRow, SqliteValue } from './driver.ts'
