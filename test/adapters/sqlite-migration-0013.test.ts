/**
 * Migration 0013 (the Data Integrity proof of each credential) on a database written by the version
 * before it: the credentials already stored were signed before clubcred made proofs, so they read as
 * proof state `none` (the column's `''`) and are never queued for one; a credential stored afterwards starts with its proof to make.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'
import type { CredentialProof, CredentialRecord } from '../../core/credentials/credential-record.ts'

const IDS = [31, 32]

const credentialOf = (i: number, proof: CredentialProof): CredentialRecord => ({
  id: `c-${i}`,
  issuanceId: IDS[i]!,
  club: 'chess',
  jwt: `h.p${i}.s`,
  issuedAt: 3_000 + i,
  validUntil: null,
  statusListId: 1,
  statusListIndex: i,
  proof,
})

describe('migration 0013 on a database from before', () => {
  it('credentials stored before have no proof to make; one stored after has', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const db = chessDatabaseAtVersion(file, 12)
    for (const [i, id] of IDS.entries()) {
      db.prepare(
        `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
         VALUES (?, ?, 'chess', 1, 1, ?, 'Name', 'n@example.org', '[]', 'none', 1)`,
      ).run(id, i + 1, `u${i}`)
    }
    db.prepare("UPDATE sequences SET value = 2 WHERE name = 'issuances'").run()
    const before = credentialOf(0, { state: 'pending' })
    db.prepare(
      `INSERT INTO credentials (issuance_seq, issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(before.issuanceId, before.id, before.club, before.jwt, before.issuedAt, before.validUntil, before.statusListId, before.statusListIndex)
    db.close()

    const storage = openSqliteFile(file)
    t.after(() => storage.close())
    assert.deepStrictEqual(await storage.credentials.findById('c-0'), credentialOf(0, { state: 'none' }))
    const claim = () => storage.transaction((tx) => tx.credentials.claimUnproven(10_000, 1, 10), { concurrent: true })
    assert.deepStrictEqual(await claim(), [])

    await storage.transaction((tx) => tx.credentials.insertMany([credentialOf(1, { state: 'pending' })]))
    assert.deepStrictEqual(await claim(), [{ credential: credentialOf(1, { state: 'pending' }), attempts: 1 }])
    assert.equal(
      await storage.transaction((tx) => tx.credentials.storeProofs([{ id: 'c-0', proof: { state: 'made', json: '{}' } }])),
      0,
      'never a proof for a credential signed before',
    )
  })
})
