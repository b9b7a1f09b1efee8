import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { loadDriver } from './load-driver.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { ServerConfig } from './config.ts'

/**
 * `storage copy --to postgres://…`: moves a one-node deployment (the SQLite file of the data dir) into
 * an empty PostgreSQL database, for the move to several nodes (docs/deployment.md). Both schemas are
 * brought to the newest migration first. The sealed private keys move as they are: they open only with
 * the data dir's master key, which the nodes must then get as `CLUBCRED_MASTER_KEY`.
 */
export async function copyStorage(config: ServerConfig, to: string, openDriver: (filename: string) => SqliteDriver) {
  if (config.database) throw new TypeError("storage copy reads the data dir's SQLite file: unset CLUBCRED_DATABASE_URL and give the target as --to")
  if (!/^postgres(ql)?:\/\//.test(to)) throw new TypeError('--to must be a postgres:// or postgresql:// URL')
  const file = join(config.dataDir, 'clubcred.db')
  if (!existsSync(file)) throw new TypeError(`there is no SQLite database at ${file} (CLUBCRED_DATA_DIR)`)

  const [{ createPostgresStorage, DEFAULT_POSTGRES_SCHEMA }, { copySqliteToPostgres, CopyRefused }, { default: postgres }] = await loadDriver('postgres', () =>
    Promise.all([import('../adapters/postgres/index.ts'), import('./copy-sqlite-to-postgres.ts'), import('postgres')]),
  )
  // Opening each storage once runs its migrations; the copy then works on the tables themselves.
  await createSqliteStorage({ driver: openDriver(file) }).close()
  await (await createPostgresStorage({ url: to })).close()

  const source = openDriver(file)
  const target = postgres(to, { max: 1, onnotice: () => {} })
  try {
    const report = await copySqliteToPostgres(source, target, DEFAULT_POSTGRES_SCHEMA)
    return {
      copied: Object.fromEntries(report.tables.map(({ table, target: rows }) => [table, rows])),
      masterKey: config.masterKey
        ? 'The keys are sealed with CLUBCRED_MASTER_KEY: give every node the same value.'
        : `The keys are sealed with the key in ${join(config.dataDir, 'master.key')}: give every node its content as CLUBCRED_MASTER_KEY. It is not in the database.`,
    }
  } catch (error) {
    // A refusal is the operator's to fix, like a wrong argument: the CLI answers it as a usage error.
    throw error instanceof CopyRefused ? new TypeError(error.message) : error
  } finally {
    source.close()
    await target.end()
  }
}
