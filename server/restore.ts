import { randomUUID } from 'node:crypto'
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { openSealedKeys } from '../core/keys/check-master-key.ts'
import { countRows, openClubcredFile, readStoredKeys, syncToDisk } from './backup-file.ts'
import { copySealed } from './backup-seal.ts'
import { BackupRefused, RestoreKeyMismatch } from './backup-errors.ts'
import { readMasterKey } from './master-key.ts'
import { restrictSqliteFiles } from './private-files.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { ServerConfig } from './config.ts'

/**
 * `restore --from FILE` (docs/backup.md) into a data dir that holds no database yet. Needs the master
 * key of the data dir first (`CLUBCRED_MASTER_KEY` or `master.key`, never created here): it checks the
 * seal before anything else. FILE's database is copied byte for byte into a temporary file of the data
 * dir (mode 0600) while its seal is checked over exactly those bytes, and only that checked copy is
 * opened: a clubcred database of a schema this clubcred knows, undamaged, holding no table, index, view
 * or trigger the migrations did not make, whose every key the master key opens (a restore that a server
 * would then refuse to start on is refused at once). Then the copy's revocation lists are retired
 * (below), and it is synced and hard-linked to `clubcred.db`, which fails if a database appeared
 * meanwhile: a server never sees a half-written database, and an existing one is never replaced. A
 * refusal leaves the data dir as it was.
 *
 * `allowUnsealed` accepts a file without a seal (a backup made before backups were sealed): its
 * schema and keys are still checked, its data cannot be.
 */
export async function restoreDataDir(
  config: ServerConfig,
  from: string,
  { allowUnsealed, openDriver }: { allowUnsealed: boolean; openDriver: (filename: string) => SqliteDriver },
) {
  if (config.database) {
    throw new BackupRefused("restore writes the data dir's SQLite file; with CLUBCRED_DATABASE_URL use pg_restore into an empty database (docs/backup.md)")
  }
  const source = resolve(from)
  if (!existsSync(source)) throw new BackupRefused(`there is no file ${source}`)
  const database = resolve(config.dataDir, 'clubcred.db')
  for (const file of [database, `${database}-wal`]) {
    if (existsSync(file)) throw new BackupRefused(`the data dir already holds a database (${file}): restore only into an empty data dir`)
  }
  const masterKey = readMasterKey(config.dataDir, config.masterKey)
  if (!masterKey) {
    throw new BackupRefused(
      `no master key: the backup does not hold it. Put the key file of the backed-up data dir at ${join(config.dataDir, 'master.key')} (mode 0600) or set CLUBCRED_MASTER_KEY, then restore`,
    )
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const temporary = join(config.dataDir, `.clubcred.db.${randomUUID()}.tmp`)
  let db: Database.Database | undefined
  try {
    const { sealed } = copySealed(source, temporary, masterKey, { allowUnsealed })
    // Its changes would go to a -wal beside the temporary name and be lost at the link.
    if (inWalMode(temporary)) throw new BackupRefused(`${source} is in WAL mode: it is a copy of a live database, not a file that backup --out wrote`)
    const opened = openClubcredFile(temporary, { readonly: true, openDriver })
    db = opened.db
    const keys = readStoredKeys(db)
    const { failed } = await openSealedKeys(keys, masterKey)
    if (failed.length > 0) {
      throw new RestoreKeyMismatch(
        `the master key does not open ${failed.length} of the ${keys.length} keys in ${source}: it is not the key they were sealed with; nothing was restored`,
      )
    }
    const counts = countRows(db)
    db.close()
    db = undefined
    const retiredStatusLists = retireStatusLists(temporary)
    syncToDisk(temporary)
    try {
      linkSync(temporary, database)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new BackupRefused(`a database appeared at ${database} during the restore: nothing was restored`)
      throw error
    }
    syncToDisk(database)
    restrictSqliteFiles(database)
    return {
      restored: database,
      from: source,
      sealed,
      schemaVersion: opened.schemaVersion,
      ...counts,
      retiredStatusLists,
      masterKey: `opens all ${keys.length} keys`,
    }
  } finally {
    db?.close()
    for (const file of [temporary, `${temporary}-journal`, `${temporary}-wal`, `${temporary}-shm`]) rmSync(file, { force: true })
  }
}

/**
 * Marks every revocation list of the copy full, so that the restored server opens new lists for new
 * credentials (docs/backup.md § What a restore brings back, and what it cannot). Credentials signed after the backup are lost
 * to the server but not to their holders, and hold the slots after the copy's `allocated`: handed out
 * again, revoking a new credential would also revoke a lost one. Returns how many lists it retired.
 */
function retireStatusLists(file: string): number {
  const copy = new Database(file)
  try {
    return copy.prepare('UPDATE status_lists SET allocated = size WHERE allocated < size').run().changes
  } finally {
    copy.close()
  }
}

/** Whether a SQLite file's header says WAL (its read and write format versions, bytes 18 and 19, are 2). */
function inWalMode(file: string): boolean {
  const header = Buffer.alloc(20)
  const fd = openSync(file, 'r')
  try {
    readSync(fd, header, 0, header.length, 0)
  } finally {
    closeSync(fd)
  }
  return header[18] === 2 || header[19] === 2
}
