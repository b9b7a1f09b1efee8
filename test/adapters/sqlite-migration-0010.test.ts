/**
 * Migration 0010 (signing jobs keyed by their issuance's sequence) on a database written by
 * the version before it: every waiting job keeps its lease, attempts, error and reserved slot, the queue
 * keeps its order, and one job per issuance still holds.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { StorageConflict } from '../../core/errors.ts'
import { anIssuance } from '../conformance/storage/issuances.cases.ts'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

const NOW = 1_000_000
/** Issuance ids as the product draws them (random), in sequence order 1..4. */
const IDS = [90_210, 7, 555_555, 31]

/** A database at schema version 9 holding four issuances, each with a signing job; the second leased, with a slot and an error. */
function databaseBefore0010(file: string): void {
  const db = chessDatabaseAtVersion(file, 9)
  for (const [i, id] of IDS.entries()) {
    db.prepare(
      `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
       VALUES (?, ?, 'chess', 1, 1, ?, ?, ?, '[]', 'none', 1)`,
    ).run(id, i + 1, `u${i}`, `Name ${i}`, `u${i}@example.org`)
    db.prepare("INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, 'chess', ?)").run(id, i + 1)
  }
  db.prepare("UPDATE sequences SET value = 4 WHERE name = 'issuances'").run()
  db.prepare('UPDATE signing_jobs SET lease_until = ?, attempts = 2, last_error = ?, status_list_id = 1, status_list_index = 77 WHERE issuance_id = ?').run(
    NOW + 5_000,
    'signer offline',
    IDS[1],
  )
  db.close()
}

describe('migration 0010 on a database from before', () => {
  it('waiting jobs keep every field and their order; one job per issuance still holds; new jobs queue behind', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    databaseBefore0010(file)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())

    assert.equal(await storage.signingJobs.count(), 4)
    const fresh = await storage.transaction((tx) => tx.signingJobs.claim(NOW, 60_000, 10))
    assert.deepStrictEqual(
      fresh.map((job) => job.issuanceId),
      [IDS[0], IDS[2], IDS[3]],
      'the leased job waits for its lease; the others come in sequence order',
    )
    const later = await storage.transaction((tx) => tx.signingJobs.claim(NOW + 5_001, 60_000, 10))
    assert.deepStrictEqual(later, [
      {
        issuanceId: IDS[1],
        club: 'chess',
        statusListId: 1,
        statusListIndex: 77,
        attempts: 3,
        leaseUntil: NOW + 5_001 + 60_000,
        lastError: 'signer offline',
      },
    ])

    await assert.rejects(
      storage.transaction((tx) => tx.signingJobs.enqueueMany([{ issuanceId: IDS[0]!, club: 'chess' }])),
      StorageConflict,
    )
    const added = await storage.transaction(async (tx) => {
      const issuance = await tx.issuances.insert(anIssuance({ club: 'chess', achievementId: 1, snapshotId: 1 }, { id: 12 }))
      await tx.signingJobs.enqueueMany([{ issuanceId: issuance.id, club: 'chess' }])
      return issuance
    })
    assert.equal(added.sequence, 5)
    await storage.transaction((tx) => tx.signingJobs.completeMany([IDS[0]!, IDS[1]!, IDS[2]!, IDS[3]!]))
    const last = await storage.transaction((tx) => tx.signingJobs.claim(NOW + 200_000, 60_000, 10))
    assert.deepStrictEqual(
      last.map((job) => job.issuanceId),
      [12],
    )

    const raw = new Database(file, { readonly: true })
    t.after(() => raw.close())
    assert.match((raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'signing_jobs'").get() as { sql: string }).sql, /issuance_seq INTEGER PRIMARY KEY/)
  })
})
