import { after, before } from 'node:test'
import { createPostgresStorage, migratePostgres } from '../../adapters/postgres/index.ts'
import { startPostgres, type TestPostgres } from './postgres.ts'
import type { OpenedStorage } from '../conformance/storage.suite.ts'

/**
 * One PostgreSQL server for the calling test file (started in `before`, stopped in `after`) and a
 * fresh, migrated database per `open()`: a copy of a template migrated once, which is much faster than
 * migrating every database.
 */
export function postgresPerFile(): { server(): TestPostgres; open(): Promise<OpenedStorage & { url: string }> } {
  let server: TestPostgres | undefined
  let template: string | undefined
  before(async () => {
    server = await startPostgres()
    const url = await server.newDatabase()
    await migratePostgres({ url })
    template = new URL(url).pathname.slice(1)
  })
  after(async () => {
    await server?.stop()
  })
  const running = () => {
    if (!server) throw new Error('the PostgreSQL server is not started: call inside a test')
    return server
  }
  return {
    server: running,
    async open() {
      const url = await running().newDatabase({ template })
      const storage = await createPostgresStorage({ url, poolSize: 4 })
      return { storage, url, close: () => storage.close() }
    },
  }
}
