import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { describe, it } from 'node:test'
import { readServerConfig } from '../../server/config.ts'
import { freshDataDir, removeDataDir, ROOT } from '../support/server.ts'

const URL_ONLY = { CLUBCRED_DATABASE_URL: 'postgres://clubcred@127.0.0.1:5432/clubcred' }
const MASTER_KEY = 'a'.repeat(64)

/**
 * PostgreSQL is chosen by CLUBCRED_DATABASE_URL, and then the master key must come from the environment:
 * every node needs the same one, and it must never be in the database it protects.
 */
describe('the storage and role a server is configured with', () => {
  it('is SQLite in the data dir and role all when nothing is set', () => {
    const config = readServerConfig({})
    assert.equal(config.database, undefined)
    assert.equal(config.role, 'all')
  })

  it('is PostgreSQL with the pool and timeout settings when CLUBCRED_DATABASE_URL and CLUBCRED_MASTER_KEY are set', () => {
    assert.deepEqual(readServerConfig({ ...URL_ONLY, CLUBCRED_MASTER_KEY: MASTER_KEY }).database, {
      url: URL_ONLY.CLUBCRED_DATABASE_URL,
      poolSize: 10,
      statementTimeoutMs: 30_000,
      pgbouncer: false,
    })
    const tuned = readServerConfig({
      ...URL_ONLY,
      CLUBCRED_MASTER_KEY: MASTER_KEY,
      CLUBCRED_DATABASE_POOL_SIZE: '3',
      CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS: '2500',
    })
    assert.deepEqual([tuned.database?.poolSize, tuned.database?.statementTimeoutMs], [3, 2500])
  })

  it('is behind PgBouncer with CLUBCRED_DATABASE_PGBOUNCER=1, and refuses another value or the variable without a database URL', () => {
    const withKey = { ...URL_ONLY, CLUBCRED_MASTER_KEY: MASTER_KEY }
    assert.equal(readServerConfig({ ...withKey, CLUBCRED_DATABASE_PGBOUNCER: '1' }).database?.pgbouncer, true)
    assert.equal(readServerConfig({ ...withKey, CLUBCRED_DATABASE_PGBOUNCER: '0' }).database?.pgbouncer, false)
    for (const value of ['true', 'yes', 'transaction']) {
      assert.throws(() => readServerConfig({ ...withKey, CLUBCRED_DATABASE_PGBOUNCER: value }), {
        message: `CLUBCRED_DATABASE_PGBOUNCER must be 1 or 0, got ${value}`,
      })
    }
    assert.throws(() => readServerConfig({ CLUBCRED_DATABASE_PGBOUNCER: '1' }), {
      message: /^CLUBCRED_DATABASE_PGBOUNCER is set but CLUBCRED_DATABASE_URL is not/,
    })
  })

  it('refuses a database URL without CLUBCRED_MASTER_KEY, a URL of another scheme, a bad pool size and an unknown role', () => {
    assert.throws(() => readServerConfig(URL_ONLY), { name: 'TypeError', message: /CLUBCRED_MASTER_KEY/ })
    assert.throws(() => readServerConfig({ CLUBCRED_DATABASE_URL: 'mysql://x/y', CLUBCRED_MASTER_KEY: MASTER_KEY }), /postgres:\/\//)
    assert.throws(() => readServerConfig({ ...URL_ONLY, CLUBCRED_MASTER_KEY: MASTER_KEY, CLUBCRED_DATABASE_POOL_SIZE: '0' }), /CLUBCRED_DATABASE_POOL_SIZE/)
    assert.throws(() => readServerConfig({ CLUBCRED_ROLE: 'signer' }), /CLUBCRED_ROLE must be one of all, api, worker/)
    for (const role of ['all', 'api', 'worker']) assert.equal(readServerConfig({ CLUBCRED_ROLE: role }).role, role)
  })

  it('npm start refuses to start with one line naming CLUBCRED_MASTER_KEY, and writes nothing to the data dir', async () => {
    const dataDir = freshDataDir()
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/node.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH!, PORT: '0', CLUBCRED_DATA_DIR: dataDir, ...URL_ONLY },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      assert.equal(code, 1)
      assert.match(stderr, /^clubcred: cannot start: CLUBCRED_DATABASE_URL is set but CLUBCRED_MASTER_KEY is not: .*\n$/)
      assert.equal(stderr.split('\n').length, 2, 'one line')
      assert.deepEqual(readdirSync(dataDir), [], 'no SQLite file, no generated master key')
    } finally {
      removeDataDir(dataDir)
    }
  })
})
