import { MIGRATIONS } from './migrations/index.ts'
import type { SqliteDriver } from './driver.ts'

/**
 * Brings the schema to the newest version. Each migration runs in its own IMMEDIATE transaction and
 * re-reads the version inside it, so that two processes starting on one file migrate once.
 */
export function migrate(driver: SqliteDriver): void {
  for (const migration of MIGRATIONS) {
    driver.exec('BEGIN IMMEDIATE')
    try {
      const version = Number(driver.prepare('PRAGMA user_version').get()?.user_version ?? 0)
      if (version < migration.version) {
        driver.exec(migration.sql)
        driver.exec(`PRAGMA user_version = ${migration.version}`)
      }
      driver.exec('COMMIT')
    } catch (error) {
      driver.exec('ROLLBACK')
      throw error
    }
  }
}
