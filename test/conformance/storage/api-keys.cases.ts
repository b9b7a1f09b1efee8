import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import type { ApiKeyRecord } from '../../../core/ports/storage.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

function anApiKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: '0123456789abcdef',
    club: 'chess',
    secretHash: 'sha256$47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU',
    createdAt: 1_900_000_000_000,
    revokedAt: null,
    ...overrides,
  }
}

/** ApiKeyStore: core/ports/storage.ts. */
export function apiKeyCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('api keys', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const withClubs = () =>
      storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clubs.insert(aClub({ domain: 'go' }))
      })
    const insert = (...keys: ApiKeyRecord[]) =>
      storage().transaction(async (tx) => {
        for (const key of keys) await tx.apiKeys.insert(key)
      })

    it('a key read back by id equals the key inserted, as a plain object; an absent one is null', async () => {
      await withClubs()
      await insert(anApiKey())
      const found = await storage().apiKeys.findById('0123456789abcdef')
      assert.deepStrictEqual(found, anApiKey())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().apiKeys.findById('fedcba9876543210'), null)
    })

    it('a second key with the same id throws StorageConflict and keeps the first', async () => {
      await withClubs()
      await insert(anApiKey())
      await assert.rejects(insert(anApiKey({ club: 'go', secretHash: 'sha256$other' })), (error) => error instanceof StorageConflict)
      assert.deepStrictEqual(await storage().apiKeys.findById('0123456789abcdef'), anApiKey())
    })

    it("listByClub returns only the club's keys, oldest first then by id, revoked ones included; [] when none", async () => {
      await withClubs()
      const keys = [
        anApiKey({ id: 'bbbbbbbbbbbbbbbb', createdAt: 2 }),
        anApiKey({ id: 'cccccccccccccccc', createdAt: 1, revokedAt: 5 }),
        anApiKey({ id: 'aaaaaaaaaaaaaaaa', createdAt: 2 }),
        anApiKey({ id: 'dddddddddddddddd', club: 'go', createdAt: 0 }),
      ]
      await insert(...keys)
      assert.deepStrictEqual(await storage().apiKeys.listByClub('chess'), [keys[1], keys[2], keys[0]])
      assert.deepStrictEqual(await storage().apiKeys.listByClub('go'), [keys[3]])
      assert.deepStrictEqual(await storage().apiKeys.listByClub('nowhere'), [])
    })

    it('revoke sets revokedAt once: true the first time, false after, and false for an absent key', async () => {
      await withClubs()
      await insert(anApiKey(), anApiKey({ id: 'aaaaaaaaaaaaaaaa' }))
      assert.equal(await storage().transaction((tx) => tx.apiKeys.revoke('0123456789abcdef', 7)), true)
      assert.equal(await storage().transaction((tx) => tx.apiKeys.revoke('0123456789abcdef', 9)), false)
      assert.equal(await storage().transaction((tx) => tx.apiKeys.revoke('ffffffffffffffff', 9)), false)
      assert.deepStrictEqual(await storage().apiKeys.findById('0123456789abcdef'), anApiKey({ revokedAt: 7 }))
      assert.deepStrictEqual(await storage().apiKeys.findById('aaaaaaaaaaaaaaaa'), anApiKey({ id: 'aaaaaaaaaaaaaaaa' }))
    })

    it('a revoke in a rolled-back unit is undone', async () => {
      await withClubs()
      await insert(anApiKey())
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.equal(await tx.apiKeys.revoke('0123456789abcdef', 7), true)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await storage().apiKeys.findById('0123456789abcdef'), anApiKey())
    })

    it('of concurrent revokes of one key exactly one changes it', async () => {
      await withClubs()
      await insert(anApiKey())
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => storage().transaction((tx) => tx.apiKeys.revoke('0123456789abcdef', 10 + i))))
      assert.equal(outcomes.filter(Boolean).length, 1)
      assert.equal((await storage().apiKeys.findById('0123456789abcdef'))?.revokedAt, 10 + outcomes.indexOf(true))
    })
  })
}
