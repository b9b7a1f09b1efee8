import { MIGRATIONS } from './migrations/index.ts'
import type { SqliteDriver } from './driver.ts'

type Migration = (typeof MIGRATIONS)[number]

/**
 * Brings the schema to the newest version. Each migration runs in its own IMMEDIATE transaction and
 * re-reads the version inside it, so that two processes starting on one file migrate once.
 *
 * Foreign keys are off while a migration runs and checked before it commits: a migration that rebuilds
 * a table other tables point at (0011) drops the old table and renames the new one into its place, which
 * SQLite allows only with the checks off (https://sqlite.org/lang_altertable.html#otheralter). The
 * pragma cannot change inside a transaction, hence around it; it is back on whatever happens.
 */
export function migrate(driver: SqliteDriver, migrations: readonly Migration[] = MIGRATIONS): void {
  let applied = 0
  for (const migration of migrations) {
    driver.exec('PRAGMA foreign_keys = OFF')
    try {
      driver.exec('BEGIN IMMEDIATE')
      try {
        const version = Number(driver.prepare('PRAGMA user_version').get()?.user_version ?? 0)
        if (version < migration.version) {
          driver.exec(migration.sql)
          const broken = driver.prepare('PRAGMA foreign_key_check').all()
          if (broken.length > 0)
            throw new Error(`migration ${migration.version} (${migration.name}) breaks foreign keys: ${JSON.stringify(broken.slice(0, 3))}`)
          driver.exec(`PRAGMA user_version = ${migration.version}`)
          applied++
        }
        driver.exec('COMMIT')
      } catch (error) {
        driver.exec('ROLLBACK')
        throw error
      }
    } finally {
      driver.exec('PRAGMA foreign_keys = ON')
    }
  }
  // A migration that rebuilds a table writes the whole table to the WAL, and the WAL file keeps its size
  // once grown: hand the space back now. Another process reading at this moment makes this a no-op.
  if (applied > 0) driver.exec('PRAGMA wal_checkpoint(TRUNCATE)')
}
