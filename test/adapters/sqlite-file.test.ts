/** What only a file-backed SQLite storage promises: several connections and processes, reopening. */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { migrate } from '../../adapters/sqlite/migrate.ts'
import { PAGE_SIZE } from '../../adapters/sqlite/storage.ts'
import { MIGRATIONS } from '../../adapters/sqlite/migrations/index.ts'
import { aClient, aClub, aKey, deferred } from '../conformance/storage/harness.ts'
import { sqliteOutboxOf } from '../support/outbox-rows.ts'
import { openSqliteFile, openTempSqlite, tempDir } from '../support/temp-sqlite.ts'

describe('sqlite/better-sqlite3 on a file', () => {
  it('a second storage opened on the same file sees committed data', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const first = openSqliteFile(file)
    const second = openSqliteFile(file)
    t.after(async () => {
      await first.close()
      await second.close()
    })
    await first.transaction(async (tx) => {
      await tx.clubs.insert(aClub())
      await tx.clients.insert(aClient())
      await tx.keys.insert(aKey())
    })
    assert.deepStrictEqual(await second.clubs.findByDomain('chess'), aClub())
    assert.deepStrictEqual(await second.clients.findById(aClient().id), aClient())
    assert.deepStrictEqual(await second.keys.findActive('platform'), aKey())
  })

  it("another connection does not see a unit's uncommitted writes, and sees them after commit", async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const writer = openSqliteFile(file)
    const reader = openSqliteFile(file)
    t.after(async () => {
      await writer.close()
      await reader.close()
    })
    const inside = deferred<unknown>()
    await writer.transaction(async (tx) => {
      await tx.clubs.insert(aClub())
      inside.resolve(await reader.clubs.findByDomain('chess'))
    })
    assert.equal(await inside.promise, null)
    assert.deepStrictEqual(await reader.clubs.findByDomain('chess'), aClub())
  })

  it('the active-key rule holds across connections on one file', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const first = openSqliteFile(file)
    const second = openSqliteFile(file)
    t.after(async () => {
      await first.close()
      await second.close()
    })
    await first.transaction((tx) => tx.keys.insert(aKey({ kid: 'one' })))
    await assert.rejects(
      second.transaction((tx) => tx.keys.insert(aKey({ kid: 'two' }))),
      { name: 'StorageConflict' },
    )
  })

  it('reopening a file runs no migration twice and keeps the data', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const first = openSqliteFile(file)
    await first.transaction((tx) => tx.clubs.insert(aClub()))
    await first.close()

    for (let i = 0; i < 2; i++) {
      const again = openSqliteFile(file)
      assert.deepStrictEqual(await again.clubs.findByDomain('chess'), aClub())
      assert.equal(await again.clubs.count(), 1)
      await again.close()
    }
    const raw = new Database(file, { readonly: true })
    t.after(() => raw.close())
    assert.equal(raw.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version)
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal')
    const schema = raw.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all()

    // Running the migrations once more by hand changes nothing either.
    const driver = betterSqlite3Driver(file)
    migrate(driver)
    migrate(driver)
    driver.close()
    assert.deepStrictEqual(raw.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all(), schema)
    assert.equal(raw.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version)
  })

  it('processes racing for the first platform key on one file all get the same key', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    await openSqliteFile(file).close() // migrate once up front, so that the race is about the key
    const child = new URL('../support/key-race-child.ts', import.meta.url).pathname
    const startAt = String(Date.now() + 1500)
    const run = promisify(execFile)
    const outputs = await Promise.all(Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', child, file, startAt])))
    const kids = outputs.map(({ stdout }) => stdout.trim())
    assert.ok(
      kids.every((kid) => /^[A-Za-z0-9_-]{16}$/.test(kid)),
      kids.join(' '),
    )
    assert.equal(new Set(kids).size, 1, `kids: ${kids.join(' ')}`)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())
    assert.equal((await storage.keys.listByOwner('platform')).length, 1)
  })
})

describe('sqlite page size', () => {
  it('a new file gets 8 KiB pages; a file made with 4 KiB pages keeps them and still works', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const fresh = join(dir.path, 'fresh.db')
    const storage = openSqliteFile(fresh)
    await storage.clubs.insert(aClub())
    await storage.close()
    const read = (file: string) => {
      const db = new Database(file, { readonly: true })
      try {
        return db.pragma('page_size', { simple: true })
      } finally {
        db.close()
      }
    }
    assert.equal(read(fresh), PAGE_SIZE)
    assert.equal(PAGE_SIZE, 8192)

    const older = join(dir.path, 'older.db')
    const made = new Database(older)
    made.pragma('page_size = 4096')
    made.pragma('journal_mode = WAL')
    made.close()
    const driver = betterSqlite3Driver(older)
    migrate(driver)
    driver.close()
    const reopened = openSqliteFile(older)
    await reopened.clubs.insert(aClub())
    assert.deepStrictEqual(await reopened.clubs.findByDomain('chess'), aClub())
    await reopened.close()
    assert.equal(read(older), 4096)
  })
})

describe('sqlite/better-sqlite3 outbox rows', () => {
  it('markFailed and markSent are recorded on the row, for the operator', async (t) => {
    const { storage, file, close } = await openTempSqlite()
    t.after(close)
    const message = { club: 'chess', issuanceId: 17, to: 'ada@example.org', subject: 's', text: 't', html: 'h', nextAttemptAt: 1, createdAt: 1 }
    const [id] = await storage.transaction((tx) => tx.outbox.enqueueMany([message]))
    await storage.transaction((tx) => tx.outbox.claimDue(1, 10, 10, 5))
    await storage.transaction((tx) => tx.outbox.markFailed(id!, '451 try again later', 20))
    assert.deepStrictEqual(sqliteOutboxOf(file, 17), [{ attempts: 1, sentAt: null, lastError: '451 try again later' }])
    await storage.transaction((tx) => tx.outbox.claimDue(20, 10, 10, 5))
    await storage.transaction((tx) => tx.outbox.markSent(id!, 25))
    assert.deepStrictEqual(sqliteOutboxOf(file, 17), [{ attempts: 2, sentAt: 25, lastError: null }])
  })
})
