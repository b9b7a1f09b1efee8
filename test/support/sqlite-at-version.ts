import Database from 'better-sqlite3'
import { MIGRATIONS } from '../../adapters/sqlite/migrations/index.ts'

/**
 * A SQLite file as an older clubcred left it, for the test of a migration after it: the migrations up to
 * `version` (and the version recorded), then the club `chess` with one template (id 1) and its snapshot
 * (id 1). Returns the open database for the rows the test adds; the caller closes it.
 */
export function chessDatabaseAtVersion(file: string, version: number): Database.Database {
  const db = new Database(file)
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) db.exec(migration.sql)
  db.pragma(`user_version = ${version}`)
  db.exec(`
    INSERT INTO clubs VALUES ('chess', 'Chess', 1, 0, 1);
    INSERT INTO achievements (club, name, type, description, imprint_description, tag, co_issuers, created_at, updated_at)
      VALUES ('chess', 'Openings', 'completion', 'd', 'd', '[]', '[]', 1, 1);
    INSERT INTO snapshots (club, achievement_id, view, created_at) VALUES ('chess', 1, '{}', 1);
  `)
  return db
}
