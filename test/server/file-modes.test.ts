/**
 * Files at rest: every file the server writes in the data dir is readable by its owner only, also when
 * the operator made the data dir (mode 0755) and the process umask is 022.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { accessToken } from '../support/tokens.ts'
import { cli, clubAndClient, removeDataDir, startServer } from '../support/server.ts'

/** `{ name: mode }` of every file in `dir`, the mode as an octal string. */
function modes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]))
}

function assertOwnerOnly(dir: string, expected: string[]): void {
  const found = modes(dir)
  for (const name of expected) assert.ok(name in found, `${name} exists: ${JSON.stringify(found)}`)
  for (const [name, mode] of Object.entries(found)) assert.equal(mode, '600', `${name} has mode ${mode}: ${JSON.stringify(found)}`)
}

describe('file modes in an operator-made data dir', () => {
  let previousUmask: number
  const dirs: string[] = []
  before(() => {
    previousUmask = process.umask(0o022) // children inherit it
  })
  after(() => {
    process.umask(previousUmask)
    for (const dir of dirs) removeDataDir(dir)
  })

  function operatorDataDir(): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'clubcred-modes-')), 'data')
    dirs.push(dir)
    mkdirSync(dir, { mode: 0o755 })
    assert.equal(statSync(dir).mode & 0o777, 0o755)
    return dir
  }

  it('the database, its WAL and shared memory, and the master key are 0600 while the server runs and after', async () => {
    const dataDir = operatorDataDir()
    const server = await startServer({ dataDir })
    try {
      const client = await clubAndClient(dataDir, 'modes') // the CLI writes too
      await accessToken(server, client)
      assertOwnerOnly(dataDir, ['clubcred.db', 'clubcred.db-wal', 'clubcred.db-shm', 'master.key'])
    } finally {
      assert.equal(await server.stop(), 0, server.stderr)
    }
    assertOwnerOnly(dataDir, ['clubcred.db', 'master.key'])
  })

  it('files an older version left world-readable are made 0600 on the next start', async () => {
    const dataDir = operatorDataDir()
    const db = new Database(join(dataDir, 'clubcred.db'))
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)')
    // Leave the WAL and shared-memory files behind, as a crashed older server would.
    assert.equal(modes(dataDir)['clubcred.db'], '644')
    await cli(dataDir, 'club', 'create', '--domain', 'older', '--name', 'Older')
    try {
      assertOwnerOnly(dataDir, ['clubcred.db', 'clubcred.db-wal', 'clubcred.db-shm', 'master.key'])
    } finally {
      db.close()
    }
  })
})
