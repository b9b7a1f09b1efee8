/**
 * The storage port conformance suite on Deno, against the SQLite adapter on `node:sqlite`
 * (docs/architecture.md § Layers): the same suite as test/adapters/, run by `deno test` through Deno's
 * `node:test`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { nodeSqliteDriver } from '../../adapters/sqlite/driver-node-sqlite.ts'
import { storageSuite } from '../conformance/storage.suite.ts'

storageSuite({
  name: 'sqlite/node:sqlite',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clubcred-deno-'))
    const storage = createSqliteStorage({ driver: nodeSqliteDriver(join(dir, 'clubcred.db')) })
    return {
      storage,
      async close() {
        await storage.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
})
