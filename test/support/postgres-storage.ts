import { after, before } from 'node:test'
import { createPostgresStorage, migratePostgres } from '../../adapters/postgres/index.ts'
import { startPostgres, type TestPostgres } from './postgres.ts'
import type { OpenedStorage } from '../conformance/storage.suite.ts'

export interface PostgresPerFile {
  /** The server, once started: call inside a test. */
  server(): TestPostgres
  /** The server, started by this call if the file's `before` has not yet: for a test file's own `before`. */
  started(): Promise<TestPostgres>
  /** A fresh database's URL: a copy of the migrated template, or with `migrated: false` an empty one (to test migrating). */
  database(options?: { migrated?: boolean }): Promise<string>
  /** Storage on a fresh migrated database. */
  open(): Promise<OpenedStorage & { url: string }>
}

/**
 * One PostgreSQL server for the calling test file (started in `before`, stopped in `after`) and a
 * fresh, migrated database per `open()`: a copy of a template migrated once, which is much faster than
 * migrating every database.
 */
export function postgresPerFile(): PostgresPerFile {
  let server: TestPostgres | undefined
  let template: string | undefined
  let starting: Promise<TestPostgres> | undefined
  // Once, whoever asks first: a file's root-level `before` hooks do not wait for each other.
  const started = () =>
    (starting ??= (async () => {
      server = await startPostgres()
      const url = await server.newDatabase()
      await migratePostgres({ url })
      template = new URL(url).pathname.slice(1)
      return server
    })())
  before(async () => {
    await started()
  })
  after(async () => {
    await server?.stop()
  })
  const running = () => {
    if (!server) throw new Error('the PostgreSQL server is not started: call inside a test')
    return server
  }
  const database = ({ migrated = true } = {}) => running().newDatabase(migrated ? { template } : {})
  return {
    server: running,
    started,
    database,
    async open() {
      const url = await database()
      const storage = await createPostgresStorage({ url, poolSize: 4 })
      return { storage, url, close: () => storage.close() }
    },
  }
}
