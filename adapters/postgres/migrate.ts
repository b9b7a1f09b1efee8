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
 * Brings the schema to the newest version, in one transaction that first takes a transaction-scoped
 * advisory lock (keyed by the schema's name): several processes starting together on one database
 * migrate once, the others wait, then find every version applied. The lock is the transaction's, not
 * the session's, so that it works behind a pooler in transaction mode too, where the statements of one
 * session may run on several server connections (docs/deployment.md § Behind PgBouncer). A failed
 * migration rolls back all of this run's: no half-applied schema is left behind.
 */
export async function migrate(sql: Sql, schema: string): Promise<void> {
  assertSchemaName(schema)
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${lockSpace(schema)}), ${LOCK_IDS.migrations})`
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await tx.unsafe(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    const applied = new Set((await tx.unsafe(`SELECT version FROM ${schema}.migrations`)).map((row) => Number(row.version)))
    await tx.unsafe(`SET LOCAL search_path TO ${schema}`)
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue
      await tx.unsafe(migration.sql)
      await tx.unsafe(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
    }
  })
}
