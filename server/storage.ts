import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { loadMasterKey } from './master-key.ts'
import { restrictSqliteFiles } from './private-files.ts'
import { loadDriver } from './load-driver.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { ConsoleStoragePort } from '../core/ports/storage.ts'
import type { ServerConfig } from './config.ts'

export interface OpenedStorage {
  storage: ConsoleStoragePort
  masterKey: Uint8Array
}

/**
 * The storage the configuration names, with the master key that goes with it: PostgreSQL when
 * `CLUBCRED_DATABASE_URL` is set (the key from `CLUBCRED_MASTER_KEY`, which the configuration requires
 * then), else the data dir's SQLite file and key file. Each driver is loaded only when used (`openDriver`
 * may load its own), so a server on PostgreSQL needs no better-sqlite3 and one on SQLite no postgres.
 */
export async function openStorage(config: ServerConfig, openDriver: (filename: string) => SqliteDriver | Promise<SqliteDriver>): Promise<OpenedStorage> {
  if (config.database) {
    const { createPostgresStorage } = await loadDriver('postgres', () => import('../adapters/postgres/index.ts'))
    const { url, poolSize, statementTimeoutMs, pgbouncer } = config.database
    const storage = await createPostgresStorage({ url, poolSize, statementTimeoutMs, pgbouncer })
    return { storage, masterKey: loadMasterKey(config.dataDir, config.masterKey) }
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const databaseFile = join(config.dataDir, 'clubcred.db')
  restrictSqliteFiles(databaseFile)
  const storage = createSqliteStorage({ driver: await openDriver(databaseFile) })
  return { storage, masterKey: loadMasterKey(config.dataDir, config.masterKey) }
}
