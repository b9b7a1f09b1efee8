import { randomUUID } from 'node:crypto'
import { closeSync, existsSync, linkSync, openSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { openSealedKeys } from '../core/keys/check-master-key.ts'
import { countRows, masterKeyNote, openClubcredFile, readStoredKeys, syncToDisk } from './backup-file.ts'
import { BackupRefused, RestoreKeyMismatch } from './backup-errors.ts'
import { sealFile } from './backup-seal.ts'
import { readMasterKey } from './master-key.ts'
import { createProgress } from './progress.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { ServerConfig } from './config.ts'

/** Pages copied per step at first; doubled after each restart (below). */
const FIRST_STEP_PAGES = 256

/**
 * `backup --out FILE` (docs/backup.md): a consistent copy of the data dir's SQLite file while the
 * server runs, with SQLite's online backup API. Each step copies a run of pages under a read lock only:
 * in WAL mode (the server's) a reader never blocks the writer, so the server goes on issuing. A write by
 * the server between two steps makes SQLite restart the copy; each restart doubles the step, so under
 * any write load the copy ends, at worst in one step over one consistent snapshot.
 *
 * The live database is checked first as a restore checks a copy (a schema the migrations made, and
 * nothing else): a backup that restore would refuse is not made. The copy is written beside FILE under
 * a temporary name (mode 0600: it holds recipients' names and e-mail addresses), switched out of WAL so
 * that it is one self-contained file, sealed with a key derived from the master key once the master
 * key is seen to open its keys (server/backup-seal.ts), synced, and then hard-linked to FILE, which
 * fails when FILE exists: an existing file is never overwritten, also when it appears during the copy.
 */
export async function backupDataDir(config: ServerConfig, out: string, openDriver: (filename: string) => SqliteDriver) {
  if (config.database) {
    throw new BackupRefused(
      "backup copies the data dir's SQLite file; with CLUBCRED_DATABASE_URL use pg_dump --schema=clubcred --format=custom (docs/backup.md)",
    )
  }
  const target = resolve(out)
  if (existsSync(target)) throw new BackupRefused(`${target} exists: backup never overwrites a file`)
  if (!existsSync(dirname(target))) throw new BackupRefused(`the directory ${dirname(target)} does not exist`)
  const source = join(config.dataDir, 'clubcred.db')
  if (!existsSync(source)) throw new BackupRefused(`there is no database at ${source} (CLUBCRED_DATA_DIR)`)
  const masterKey = readMasterKey(config.dataDir, config.masterKey)
  if (!masterKey)
    throw new BackupRefused(
      `no master key: backup seals the copy with it; set CLUBCRED_MASTER_KEY or put the key file at ${join(config.dataDir, 'master.key')}`,
    )

  // Read-only: the backup never writes to the live database, and closing this connection checkpoints nothing.
  const { db } = openClubcredFile(source, { readonly: true, openDriver })
  const temporary = join(dirname(target), `.${basename(target)}.${randomUUID()}.tmp`)
  let copy: Database.Database | undefined
  try {
    closeSync(openSync(temporary, 'wx', 0o600))
    let pages = FIRST_STEP_PAGES
    let lastRemaining = Infinity
    let restarts = 0
    let total = 0
    let progress: ReturnType<typeof createProgress> | undefined
    const done = await db.backup(temporary, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > lastRemaining) {
          restarts += 1
          pages *= 2
        }
        lastRemaining = remainingPages
        if (totalPages !== total) {
          total = totalPages
          progress = createProgress(totalPages)
        }
        progress?.update(totalPages - remainingPages)
        return pages
      },
    })
    progress?.finish()
    copy = new Database(temporary)
    copy.pragma('journal_mode = DELETE')
    const counts = countRows(copy)
    const schemaVersion = Number(copy.pragma('user_version', { simple: true }))
    const keys = readStoredKeys(copy)
    copy.close()
    copy = undefined
    const { failed } = await openSealedKeys(keys, masterKey)
    if (failed.length > 0) {
      throw new RestoreKeyMismatch(
        `the master key does not open ${failed.length} of the ${keys.length} keys of this data dir: a backup sealed with it would not restore; give the data dir's own key`,
      )
    }
    sealFile(temporary, masterKey)
    syncToDisk(temporary)
    try {
      linkSync(temporary, target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupRefused(`${target} appeared during the backup: backup never overwrites a file`)
      throw error
    }
    syncToDisk(target)
    return {
      out: target,
      bytes: statSync(target).size,
      pages: done.totalPages,
      restarts,
      schemaVersion,
      ...counts,
      masterKey: masterKeyNote(config),
    }
  } finally {
    copy?.close()
    db.close()
    rmSync(temporary, { force: true })
  }
}
