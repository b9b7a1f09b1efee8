import { chmodSync, closeSync, openSync } from 'node:fs'

/** What SQLite keeps beside a database file: the WAL, its shared-memory index and the rollback journal. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal']

/**
 * Makes the SQLite file and its companions readable by the owner only, whatever the umask and the mode
 * of an operator-made data dir: they hold recipients' names and e-mail addresses. The database file is
 * created 0600 before SQLite opens it, because SQLite gives the WAL, shared-memory and journal files it
 * creates later the mode of the database file; files an older version left behind are tightened.
 */
export function restrictSqliteFiles(databaseFile: string): void {
  closeSync(openSync(databaseFile, 'a', 0o600))
  for (const file of [databaseFile, ...SQLITE_COMPANIONS.map((suffix) => databaseFile + suffix)]) {
    try {
      chmodSync(file, 0o600)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
}
