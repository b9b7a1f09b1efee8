import { MIGRATIONS } from './migrations/index.ts'
import { LOCK_IDS, lockSpace } from './locks.ts'
import type { Sql } from 'postgres'

/** A schema name is spliced into SQL as an identifier, so it is checked, never quoted blindly. */
export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`schema must be a lower-case SQL identifier (letters, digits, _), got ${JSON.stringify(schema)}`)
  }
}

/**
 * Brings the schema to the newest version. A session advisory lock (keyed by the schema's name) is held
 * around the check-and-apply, so that several processes starting together on one database migrate once:
 * the others wait, then find every version applied. Each migration runs in its own transaction with
 * the row that records it, so a failed one leaves no half-applied schema behind.
 */
export async function migrate(sql: Sql, schema: string): Promise<void> {
  assertSchemaName(schema)
  const connection = await sql.reserve()
  try {
    await connection`SELECT pg_advisory_lock(hashtext(${lockSpace(schema)}), ${LOCK_IDS.migrations})`
    try {
      await connection.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      await connection.unsafe(
        `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      )
      const applied = new Set((await connection.unsafe(`SELECT version FROM ${schema}.migrations`)).map((row) => Number(row.version)))
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue
        await connection.unsafe('BEGIN')
        try {
          await connection.unsafe(`SET LOCAL search_path TO ${schema}`)
          await connection.unsafe(migration.sql)
          await connection.unsafe(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
          await connection.unsafe('COMMIT')
        } catch (error) {
          await connection.unsafe('ROLLBACK').catch(() => {})
          throw error
        }
      }
    } finally {
      await connection`SELECT pg_advisory_unlock(hashtext(${lockSpace(schema)}), ${LOCK_IDS.migrations})`.catch(() => {})
    }
  } finally {
    connection.release()
  }
}
