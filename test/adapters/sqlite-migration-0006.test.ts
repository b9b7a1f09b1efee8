/**
 * Migration 0006 (random issuance ids) on a database written by the version before it:
 * existing issuances keep their ids, their sequence is their id, so cursors handed out before, the
 * signing queue's order and certificate numbers stay as they were.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { StorageConflict } from '../../core/errors.ts'
import { anIssuance } from '../conformance/storage/issuances.cases.ts'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

/** A database at schema version 5 holding three issuances (ids 1, 2, 3, made by AUTOINCREMENT) and a job for the last two. */
function databaseBefore0006(file: string): void {
  const db = chessDatabaseAtVersion(file, 5)
  for (const name of ['Ada', 'Grace', 'Hedy']) {
    db.prepare(
      `INSERT INTO issuances (club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
       VALUES ('chess', 1, 1, ?, ?, ?, '[]', 'none', 1)`,
    ).run(name, name, `${name}@example.org`)
  }
  db.exec("INSERT INTO signing_jobs (issuance_id, club) VALUES (3, 'chess'), (2, 'chess')")
  db.exec(`INSERT INTO status_lists (club, purpose, size, seed, created_at) VALUES ('chess', 'revocation', 131072, 's', 1);
    INSERT INTO credentials VALUES (1, 'c0ffee00-0000-4000-8000-000000000001', 'chess', 'header.payload.signature', 5, NULL, 1, 77)`)
  db.close()
}

describe('migration 0006 on a database from before', () => {
  it('existing issuances keep their ids and take them as their sequence; new ones continue the sequence', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    databaseBefore0006(file)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())

    for (const id of [1, 2, 3]) assert.equal((await storage.issuances.findById('chess', id))?.sequence, id)
    const seed = { club: 'chess', achievementId: 1, snapshotId: 1 }
    const fresh = await storage.transaction((tx) => tx.issuances.insert(anIssuance(seed)))
    assert.equal(fresh.sequence, 4)
    // A cursor handed out before the upgrade named the last id of its page; it still means the same place.
    const afterOldCursor = await storage.issuances.list('chess', { limit: 10, beforeSequence: 3 })
    assert.deepStrictEqual(
      afterOldCursor.map((issuance) => issuance.id),
      [2, 1],
    )
    const newest = await storage.issuances.list('chess', { limit: 10, beforeSequence: null })
    assert.deepStrictEqual(
      newest.map((issuance) => issuance.id),
      [fresh.id, 3, 2, 1],
    )
    // The credential of issuance 1 survived the rebuild of its table, and its constraints hold.
    assert.deepStrictEqual(await storage.credentials.findByIssuance(1), {
      id: 'c0ffee00-0000-4000-8000-000000000001',
      issuanceId: 1,
      club: 'chess',
      jwt: 'header.payload.signature',
      issuedAt: 5,
      validUntil: null,
      statusListId: 1,
      statusListIndex: 77,
      // Stored before migration 0013: signed before clubcred made proofs.
      proof: { state: 'none' },
    })
    const second = {
      id: 'c0ffee00-0000-4000-8000-000000000002',
      issuanceId: 1,
      club: 'chess',
      jwt: 'x',
      issuedAt: 6,
      validUntil: null,
      statusListId: 1,
      statusListIndex: 78,
      proof: { state: 'pending' as const },
    }
    assert.deepStrictEqual(await storage.transaction((tx) => tx.credentials.insertMany([second])), [], 'one credential per issuance')
    assert.equal(await storage.credentials.findById(second.id), null)
    // The old ids stay taken.
    await assert.rejects(
      storage.transaction((tx) => tx.issuances.insert(anIssuance(seed, { id: 2 }))),
      StorageConflict,
    )
  })

  it('jobs waiting in the signing queue keep their order, and new jobs queue behind them', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    databaseBefore0006(file)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())

    const fresh = await storage.transaction(async (tx) => {
      const issuance = await tx.issuances.insert(anIssuance({ club: 'chess', achievementId: 1, snapshotId: 1 }, { id: 1_000 }))
      await tx.signingJobs.enqueueMany([{ issuanceId: issuance.id, club: 'chess' }])
      return issuance
    })
    const claimed = await storage.transaction((tx) => tx.signingJobs.claim(1, 60_000, 10))
    assert.deepStrictEqual(
      claimed.map((job) => job.issuanceId),
      [2, 3, fresh.id],
    )
  })
})
