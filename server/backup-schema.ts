import type Database from 'better-sqlite3'
import { migrate } from '../adapters/sqlite/migrate.ts'
import { MIGRATIONS } from '../adapters/sqlite/migrations/index.ts'
import { BackupRejected } from './backup-errors.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'

/** One entry of `sqlite_schema`: a table, index, view or trigger. */
interface SchemaObject {
  type: string
  name: string
  tableName: string
  /** Normalised (below); `null` for the indexes SQLite makes for UNIQUE and PRIMARY KEY. */
  sql: string | null
}

/** How a database's schema differs from the migrations' at its version, one object at a time. */
export interface SchemaDifference {
  type: string
  name: string
  difference: 'not made by the migrations' | 'changed' | 'missing'
}

/** Made by SQLite itself on `ANALYZE`: statistics for the query planner, which run nothing. */
const PLANNER_STATISTICS = new Set(['sqlite_stat1', 'sqlite_stat4'])

/**
 * Checks that `db` holds exactly the tables, indexes, views and triggers that clubcred's migrations make
 * up to `version` (docs/backup.md § The schema): a trigger added to a copy would run inside the restored
 * server on every write it watches. The expected schema is made by running the migrations on an empty
 * in-memory database opened by `openDriver` (the CLI's driver, on the SQLite that reads the copy). Throws `BackupRejected` naming every object
 * that is added, changed or missing.
 */
export function checkSchema(db: Database.Database, version: number, openDriver: (filename: string) => SqliteDriver): void {
  const differences = schemaDifferences(readSchema(db), expectedSchema(version, openDriver))
  if (differences.length === 0) return
  const words = differences.map(({ type, name, difference }) =>
    difference === 'not made by the migrations'
      ? `the backup has a ${type} the migrations do not make: ${name}`
      : difference === 'changed'
        ? `the backup's ${type} ${name} is not the one the migrations make`
        : `the backup lacks the ${type} ${name} that the migrations make`,
  )
  throw new BackupRejected('backup-foreign-schema', words.join('; '), { schemaVersion: version, objects: differences })
}

function expectedSchema(version: number, openDriver: (filename: string) => SqliteDriver): SchemaObject[] {
  const driver = openDriver(':memory:')
  try {
    migrate(
      driver,
      MIGRATIONS.filter((migration) => migration.version <= version),
    )
    return driver.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all().map(toObject)
  } finally {
    driver.close()
  }
}

function readSchema(db: Database.Database): SchemaObject[] {
  return (db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as Record<string, unknown>[])
    .map(toObject)
    .filter((object) => !(object.type === 'table' && PLANNER_STATISTICS.has(object.name)))
}

function schemaDifferences(actual: SchemaObject[], expected: SchemaObject[]): SchemaDifference[] {
  const key = (object: SchemaObject) => `${object.type} ${object.name}`
  const wanted = new Map(expected.map((object) => [key(object), object]))
  const found = new Map(actual.map((object) => [key(object), object]))
  const differences: SchemaDifference[] = []
  for (const object of actual) {
    const twin = wanted.get(key(object))
    if (!twin) differences.push({ type: object.type, name: object.name, difference: 'not made by the migrations' })
    else if (twin.tableName !== object.tableName || twin.sql !== object.sql) differences.push({ type: object.type, name: object.name, difference: 'changed' })
  }
  for (const object of expected) if (!found.has(key(object))) differences.push({ type: object.type, name: object.name, difference: 'missing' })
  return differences
}

function toObject(row: Record<string, unknown>): SchemaObject {
  return { type: String(row.type), name: String(row.name), tableName: String(row.tbl_name), sql: row.sql === null ? null : normalise(String(row.sql)) }
}

/**
 * The statement as SQLite versions may write it differently: an ALTER TABLE ... RENAME quotes the new
 * name, and whitespace is kept as typed. Quotes around names and the spacing are not compared; every
 * word and symbol is.
 */
function normalise(sql: string): string {
  return sql
    .replace(/["`[\]]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([(),;]) ?/g, '$1')
    .trim()
}
