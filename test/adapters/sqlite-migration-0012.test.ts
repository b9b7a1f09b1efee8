/**
 * Migration 0012 (credentials keyed by their issuance's sequence) on a database written by the
 * version before it: every credential keeps every field and is found by its id, by its issuance and in
 * its status list's revoked indexes; one credential per issuance still holds, and a credential still
 * cannot name an issuance that does not exist.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { StorageConflict } from '../../core/errors.ts'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'
import type { CredentialRecord } from '../../core/credentials/credential-record.ts'

/** Issuance ids as the product draws them (random), in sequence order 1..3. */
const IDS = [90_210, 7, 555_555]

const credentialOf = (i: number): CredentialRecord => ({
  id: `c-${i}`,
  issuanceId: IDS[i]!,
  club: 'chess',
  jwt: `h.p${i}.s`,
  issuedAt: 3_000 + i,
  validUntil: i === 0 ? null : 9_000 + i,
  statusListId: 1,
  statusListIndex: 40 + i,
  // Stored before migration 0013: signed before clubcred made proofs.
  proof: { state: 'none' },
})

/** A database at schema version 11: three issuances, the second revoked, the first two with a credential. */
function databaseBefore0012(file: string): void {
  const db = chessDatabaseAtVersion(file, 11)
  for (const [i, id] of IDS.entries()) {
    db.prepare(
      `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
       VALUES (?, ?, 'chess', 1, 1, ?, 'Name', 'n@example.org', '[]', 'none', 1)`,
    ).run(id, i + 1, `u${i}`)
  }
  db.prepare("UPDATE sequences SET value = 3 WHERE name = 'issuances'").run()
  db.prepare("UPDATE issuances SET revoked_at = 5000, revocation_reason = 'cheated' WHERE id = ?").run(IDS[1])
  for (const c of [credentialOf(1), credentialOf(0)]) {
    db.prepare(
      `INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(c.issuanceId, c.id, c.club, c.jwt, c.issuedAt, c.validUntil, c.statusListId, c.statusListIndex)
  }
  db.close()
}

describe('migration 0012 on a database from before', () => {
  it('credentials keep every field and are found as before; one per issuance, and only for an issuance that exists', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    databaseBefore0012(file)
    const storage = openSqliteFile(file)
    t.after(() => storage.close())

    assert.deepStrictEqual(await storage.credentials.findById('c-0'), credentialOf(0))
    assert.deepStrictEqual(await storage.credentials.findByIssuance(IDS[1]!), credentialOf(1))
    assert.equal(await storage.credentials.findByIssuance(IDS[2]!), null)
    assert.deepStrictEqual(
      (await storage.credentials.findByIssuances([IDS[2]!, IDS[1]!, IDS[0]!, IDS[1]!, 424_242])).sort((a, b) => a.id.localeCompare(b.id)),
      [credentialOf(0), credentialOf(1)],
      'each credential once, whatever the ids repeat or miss',
    )
    assert.deepStrictEqual(await storage.credentials.listRevokedIndexes(1), [41])

    assert.deepStrictEqual(
      await storage.transaction((tx) => tx.credentials.insertMany([{ ...credentialOf(0), id: 'c-again', statusListIndex: 77 }])),
      [],
      'a second credential for an issuance',
    )
    assert.equal(await storage.credentials.findById('c-again'), null)
    await assert.rejects(
      storage.transaction((tx) => tx.credentials.insertMany([{ ...credentialOf(2), issuanceId: 424_242 }])),
      StorageConflict,
      'a credential for an issuance that does not exist',
    )
    assert.equal(await storage.credentials.findById('c-2'), null)
    assert.deepStrictEqual(await storage.transaction((tx) => tx.credentials.insertMany([credentialOf(2)])), [IDS[2]])
    assert.deepStrictEqual(await storage.credentials.findByIssuance(IDS[2]!), credentialOf(2))

    const raw = new Database(file, { readonly: true })
    t.after(() => raw.close())
    assert.deepStrictEqual(raw.prepare('SELECT issuance_seq, issuance_id FROM credentials ORDER BY issuance_seq').all(), [
      { issuance_seq: 1, issuance_id: IDS[0] },
      { issuance_seq: 2, issuance_id: IDS[1] },
      { issuance_seq: 3, issuance_id: IDS[2] },
    ])
    assert.equal(
      (raw.prepare("SELECT count(*) AS n FROM pragma_index_list('credentials') WHERE origin = 'u'").get() as { n: number }).n,
      2,
      'unique: the credential id and the status slot; the issuance is the key',
    )
  })
})
