import { closeSync, fsyncSync, openSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS } from '../adapters/sqlite/migrations/index.ts'
import { BackupRefused, BackupRejected } from './backup-errors.ts'
import { checkSchema } from './backup-schema.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { StoredKey } from '../core/ports/storage.ts'
import { keyAlgorithm } from '../core/keys/key-algorithm.ts'
import type { ServerConfig } from './config.ts'

/**
 * What the backup commands share (docs/backup.md): how a file is recognised as a clubcred SQLite
 * database, what it holds, and the sentence about the master key. The commands work on SQLite files
 * with better-sqlite3 itself, not through the storage adapter: the online backup API is not on the
 * driver seam, and a copy is read as it is, never migrated.
 */

/** The tables every clubcred database has had since the first migrations. */
const REQUIRED_TABLES = ['clubs', 'clients', 'keys', 'issuances', 'credentials']

export const NEWEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1]!.version

/**
 * Opens `file` as a clubcred SQLite database and checks it: SQLite's own `quick_check`, a schema
 * version (`PRAGMA user_version`) this clubcred knows, clubcred's tables, and then that its schema is
 * exactly what the migrations make at that version (server/backup-schema.ts). A newer schema is refused:
 * an older server would misread it. Throws `BackupRefused` naming what is wrong, or `BackupRejected`
 * naming every object the migrations did not make.
 */
export function openClubcredFile(
  file: string,
  { readonly, openDriver }: { readonly: boolean; openDriver: (filename: string) => SqliteDriver },
): { db: Database.Database; schemaVersion: number } {
  let db: Database.Database
  try {
    db = new Database(file, { readonly, fileMustExist: true })
  } catch (error) {
    throw new BackupRefused(`cannot open ${file}: ${(error as Error).message}`)
  }
  try {
    db.pragma('busy_timeout = 10000')
    // The file may come from anyone: no function of its schema (a view, a trigger, a default) may run
    // with side effects. The schema check below refuses such objects; this holds until then.
    db.pragma('trusted_schema = OFF')
    const schemaVersion = Number(db.pragma('user_version', { simple: true }))
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new BackupRefused(`${file} is damaged: SQLite's quick_check says ${String(check)}`)
    const tables = new Set((db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name))
    const missing = REQUIRED_TABLES.filter((table) => !tables.has(table))
    if (schemaVersion < 1 || missing.length > 0) throw new BackupRefused(`${file} is not a clubcred database (no ${missing.join(', ') || 'schema version'})`)
    if (schemaVersion > NEWEST_SCHEMA) {
      throw new BackupRefused(`${file} has schema version ${schemaVersion}, newer than this clubcred knows (${NEWEST_SCHEMA}): use the clubcred that made it`)
    }
    checkSchema(db, schemaVersion, openDriver)
    return { db, schemaVersion }
  } catch (error) {
    db.close()
    if (error instanceof BackupRefused || error instanceof BackupRejected) throw error
    // SQLITE_NOTADB and its kin: a file that is no SQLite database at all.
    throw new BackupRefused(`${file} is not a clubcred database: ${(error as Error).message}`)
  }
}

/** How many of each thing a database holds: what an operator compares between a backup and the live data. */
export function countRows(db: Database.Database) {
  const count = (table: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)
  return {
    clubs: count('clubs'),
    issuances: count('issuances'),
    credentials: count('credentials'),
    // Accepted issuances not signed yet: a server started on the copy signs them.
    pendingSigning: count('signing_jobs'),
    keys: count('keys'),
  }
}

/** Every key of a clubcred SQLite file, as the storage port shapes them. */
export function readStoredKeys(db: Database.Database): StoredKey[] {
  const rows = db
    .prepare('SELECT kid, owner, alg, public_jwk, sealed_private_key, active, created_at FROM keys ORDER BY owner, created_at, kid')
    .all() as Record<string, unknown>[]
  return rows.map((row) => ({
    kid: String(row.kid),
    owner: String(row.owner),
    alg: keyAlgorithm(String(row.alg)),
    publicJwk: JSON.parse(String(row.public_jwk)),
    sealedPrivateKey: String(row.sealed_private_key),
    active: Number(row.active) === 1,
    createdAt: Number(row.created_at),
  }))
}

/** The sentence each backup command prints: the copy cannot be used without the key it does not hold. */
export function masterKeyNote(config: ServerConfig): string {
  const where = config.masterKey ? 'CLUBCRED_MASTER_KEY' : `the key file ${join(config.dataDir, 'master.key')}`
  return `not included: the private keys in this copy open only with the master key; keep ${where} apart from the backup (docs/backup.md)`
}

/** Writes a file and the directory entry that names it to disk, so that a copy survives a power cut. */
export function syncToDisk(file: string): void {
  for (const [path, flags] of [
    [file, 'r+'],
    [dirname(file), 'r'],
  ] as const) {
    const fd = openSync(path, flags)
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
}
