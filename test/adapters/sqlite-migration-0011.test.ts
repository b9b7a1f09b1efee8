/**
 * Migration 0011 (issuances keyed by their sequence) on a database written by the version
 * before it, and the migrator's foreign-key handling that the rebuild needs: every issuance keeps every
 * field, its id, its sequence and its place in the lists; the credentials and signing jobs that point at
 * issuances still find them, and still may not point at one that does not exist.
 */
import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { migrate } from '../../adapters/sqlite/migrate.ts'
import { anIssuance } from '../conformance/storage/issuances.cases.ts'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

/** Issuance ids as the product draws them (random), in sequence order 1..4. */
const IDS = [90_210, 7, 555_555, 31]

/** A database at schema version 10: four issuances, the second revoked, the first with a credential, the others waiting for one. */
function databaseBefore0011(file: string): void {
  const db = chessDatabaseAtVersion(file, 10)
  for (const [i, id] of IDS.entries()) {
    db.prepare(
      `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, expires_at, created_at)
       VALUES (?, ?, 'chess', 1, 1, ?, ?, ?, '[{"url":null,"name":"Game","description":null,"isPublic":true}]', 'email', ?, ?)`,
    ).run(id, i + 1, i === 3 ? null : `u${i}`, `Name ${i}`, `U${i}@Example.org`, 2_000_000 + i, 1_000 + i)
    if (i > 0) db.prepare("INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, 'chess', ?)").run(id, i + 1)
  }
  db.prepare("UPDATE sequences SET value = 4 WHERE name = 'issuances'").run()
  db.prepare("UPDATE issuances SET revoked_at = 5000, revocation_reason = 'cheated' WHERE id = ?").run(IDS[1])
  db.prepare(
    `INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
     VALUES (?, 'c-1', 'chess', 'h.p.s', 3000, NULL, 1, 42)`,
  ).run(IDS[0])
  db.close()
}

describe('migration 0011 on a database from before', () => {
  it('issuances keep every field, their ids, sequences and list order; what points at them still finds them', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    databaseBefore0011(file)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())
    assert.equal(statSync(`${file}-wal`).size, 0, 'the rebuild written to the WAL is checkpointed and the WAL truncated')

    const listed = await storage.issuances.list('chess', { limit: 10, beforeSequence: null })
    assert.deepStrictEqual(
      listed.map((issuance) => [issuance.id, issuance.sequence]),
      [
        [IDS[3], 4],
        [IDS[2], 3],
        [IDS[1], 2],
        [IDS[0], 1],
      ],
    )
    assert.deepStrictEqual(await storage.issuances.findById('chess', IDS[1]!), {
      id: IDS[1],
      sequence: 2,
      club: 'chess',
      achievementId: 1,
      snapshotId: 1,
      recipient: { externalUserId: 'u1', name: 'Name 1', email: 'U1@Example.org' },
      evidences: [{ url: null, name: 'Game', description: null, isPublic: true }],
      mode: 'email',
      expiresAt: 2_000_001,
      createdAt: 1_001,
      revokedAt: 5_000,
      revocationReason: 'cheated',
    })
    assert.deepStrictEqual(
      (await storage.issuances.findHeld('chess', 1, [{ externalUserId: null, email: 'u3@example.ORG' }]))[0]!.map((issuance) => issuance.id),
      [IDS[3]],
      'the e-mail index is rebuilt, case-insensitive as before',
    )
    assert.equal((await storage.credentials.findByIssuance(IDS[0]!))?.id, 'c-1')
    assert.deepStrictEqual(await storage.credentials.listRevokedIndexes(1), [])
    assert.equal(await storage.signingJobs.count(), 3)

    const added = await storage.transaction((tx) => tx.issuances.insert(anIssuance({ club: 'chess', achievementId: 1, snapshotId: 1 }, { id: 12 })))
    assert.equal(added.sequence, 5, 'the sequence goes on where it was')

    const raw = new Database(file)
    t.after(() => raw.close())
    raw.pragma('foreign_keys = ON')
    assert.throws(
      () => raw.prepare("INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (424242, 'chess', 99)").run(),
      /FOREIGN KEY constraint failed/,
      'a job still cannot point at an issuance that does not exist',
    )
    assert.throws(() => raw.prepare('UPDATE issuances SET id = 1 WHERE id = ?').run(IDS[0]), /FOREIGN KEY constraint failed/)
    assert.match((raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'issuances'").get() as { sql: string }).sql, /seq INTEGER PRIMARY KEY/)
  })
})

describe('the migrator and foreign keys', () => {
  it('a migration that leaves a broken foreign key is rolled back, and the checks are on again after it', (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const driver = betterSqlite3Driver(join(dir.path, 'clubcred.db'))
    t.after(() => driver.close())
    driver.exec('PRAGMA foreign_keys = ON')
    const migrations = [
      { version: 1, name: 'parents', sql: 'CREATE TABLE parents (id INTEGER PRIMARY KEY); CREATE TABLE children (parent INTEGER REFERENCES parents(id));' },
      { version: 2, name: 'orphan', sql: 'INSERT INTO children VALUES (7);' },
    ]
    assert.throws(() => migrate(driver, migrations), /migration 2 \(orphan\) breaks foreign keys/)
    assert.equal(driver.prepare('PRAGMA user_version').get()?.user_version, 1)
    assert.equal(driver.prepare('SELECT count(*) AS n FROM children').get()?.n, 0)
    assert.equal(driver.prepare('PRAGMA foreign_keys').get()?.foreign_keys, 1)
  })
})
