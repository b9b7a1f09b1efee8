import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import type { IdempotencyRecord } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const DAY = 86_400_000

function aRecord(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    scope: 'cc_0123456789abcdef01234567 POST /v2/clubs/chess/issuances',
    key: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    requestHash: 'sha256$2jmj7l5rSw0yVb_vlWAYkK_YBwk',
    response: null,
    createdAt: 1_900_000_000_000,
    expiresAt: 1_900_000_000_000 + DAY,
    ...overrides,
  }
}

/** IdempotencyStore: core/ports/storage.ts. */
export function idempotencyCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('idempotency keys', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    const insert = (record: IdempotencyRecord) => storage().transaction((tx) => tx.idempotency.insert(record))
    const find = (record: Pick<IdempotencyRecord, 'scope' | 'key'>) => storage().idempotency.find(record.scope, record.key)

    it('an in-flight record is found equal to the record inserted, as a plain object', async () => {
      const record = aRecord()
      await insert(record)
      const found = await find(record)
      assert.deepStrictEqual(found, record)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
    })

    it('a record inserted with its response round-trips, an empty body included', async () => {
      const record = aRecord({ response: { status: 201, body: '{"id":1,"name":"Ünïcødé 🏆"}' } })
      const empty = aRecord({ key: 'empty', response: { status: 204, body: '' } })
      await insert(record)
      await insert(empty)
      assert.deepStrictEqual(await find(record), record)
      assert.deepStrictEqual(await find(empty), empty)
    })

    it('find returns null for an absent key, and for the same key in another scope', async () => {
      assert.equal(await find(aRecord()), null)
      await insert(aRecord())
      assert.equal(await find(aRecord({ scope: 'cc_other POST /v2/clubs/chess/issuances' })), null)
      assert.equal(await find(aRecord({ key: aRecord().key.toUpperCase() })), null)
    })

    it('inserting an existing (scope, key) throws StorageConflict and keeps the first record', async () => {
      const first = aRecord()
      await insert(first)
      await assert.rejects(insert(aRecord({ requestHash: 'sha256$other', createdAt: 5 })), (error) => error instanceof StorageConflict)
      assert.deepStrictEqual(await find(first), first)
    })

    it('the same key in another scope, and another key in the same scope, are separate records', async () => {
      const first = aRecord()
      const otherScope = aRecord({ scope: 'cc_other POST /v2/clubs/chess/issuances', requestHash: 'sha256$b' })
      const otherKey = aRecord({ key: 'another-key', requestHash: 'sha256$c' })
      await insert(first)
      await insert(otherScope)
      await insert(otherKey)
      assert.deepStrictEqual(await find(first), first)
      assert.deepStrictEqual(await find(otherScope), otherScope)
      assert.deepStrictEqual(await find(otherKey), otherKey)
    })

    it('scope and key are never confused across a separator', async () => {
      const a = aRecord({ scope: 'a:b', key: 'c', requestHash: 'sha256$a' })
      const b = aRecord({ scope: 'a', key: 'b:c', requestHash: 'sha256$b' })
      await insert(a)
      await insert(b)
      assert.deepStrictEqual(await find(a), a)
      assert.deepStrictEqual(await find(b), b)
    })

    it('of 10 concurrent units inserting one (scope, key), exactly one succeeds and the others get StorageConflict', async () => {
      const contenders = Array.from({ length: 10 }, (_, i) => aRecord({ requestHash: `sha256$${i}` }))
      const results = await Promise.allSettled(contenders.map(insert))
      const winners = results.flatMap((result, i) => (result.status === 'fulfilled' ? [contenders[i]!] : []))
      assert.equal(winners.length, 1)
      for (const result of results) {
        if (result.status === 'rejected') assert.ok(result.reason instanceof StorageConflict, String(result.reason))
      }
      assert.deepStrictEqual(await find(aRecord()), winners[0])
    })

    it('complete stores the response and changes nothing else', async () => {
      const record = aRecord()
      await insert(record)
      await storage().transaction((tx) => tx.idempotency.complete(record.scope, record.key, { status: 201, body: '{"ok":true}' }))
      assert.deepStrictEqual(await find(record), { ...record, response: { status: 201, body: '{"ok":true}' } })
    })

    it('complete of an absent key creates nothing', async () => {
      await storage().transaction((tx) => tx.idempotency.complete('scope', 'absent', { status: 200, body: '' }))
      assert.equal(await storage().idempotency.find('scope', 'absent'), null)
    })

    it('delete removes the record, so that the key can be used again; deleting an absent key is harmless', async () => {
      const record = aRecord()
      const other = aRecord({ key: 'other' })
      await insert(record)
      await insert(other)
      await storage().transaction((tx) => tx.idempotency.delete(record.scope, record.key))
      assert.equal(await find(record), null)
      assert.deepStrictEqual(await find(other), other)
      await storage().transaction((tx) => tx.idempotency.delete(record.scope, record.key))
      const again = aRecord({ requestHash: 'sha256$again' })
      await insert(again)
      assert.deepStrictEqual(await find(record), again)
    })

    it('purgeExpired deletes the records that expired before now, keeps the others and returns how many', async () => {
      const now = 1_900_000_000_000 + DAY
      const expired = [aRecord({ key: 'old-1', expiresAt: now - DAY }), aRecord({ key: 'old-2', expiresAt: now - 1, response: { status: 201, body: 'x' } })]
      const kept = [aRecord({ key: 'at-now', expiresAt: now }), aRecord({ key: 'later', expiresAt: now + 1 })]
      for (const record of [...expired, ...kept]) await insert(record)
      assert.equal(await storage().transaction((tx) => tx.idempotency.purgeExpired(now)), 2)
      for (const record of expired) assert.equal(await find(record), null)
      for (const record of kept) assert.deepStrictEqual(await find(record), record)
      assert.equal(await storage().transaction((tx) => tx.idempotency.purgeExpired(now)), 0)
    })

    it('purgeExpired on an empty store returns 0', async () => {
      assert.equal(await storage().transaction((tx) => tx.idempotency.purgeExpired(Number.MAX_SAFE_INTEGER)), 0)
    })

    it('an insert, a completion, a delete and a purge in a rolled-back unit are undone', async () => {
      const completed = aRecord({ key: 'completed' })
      const deleted = aRecord({ key: 'deleted' })
      const purged = aRecord({ key: 'purged', expiresAt: 10 })
      for (const record of [completed, deleted, purged]) await insert(record)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.idempotency.insert(aRecord({ key: 'inserted' }))
          await tx.idempotency.complete(completed.scope, completed.key, { status: 200, body: 'done' })
          await tx.idempotency.delete(deleted.scope, deleted.key)
          assert.equal(await tx.idempotency.purgeExpired(11), 1)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal(await find(aRecord({ key: 'inserted' })), null)
      assert.deepStrictEqual(await find(completed), completed)
      assert.deepStrictEqual(await find(deleted), deleted)
      assert.deepStrictEqual(await find(purged), purged)
    })

    it('changing an inserted or found record changes nothing stored', async () => {
      const record = aRecord({ response: { status: 200, body: 'original' } })
      await insert(record)
      record.response!.body = 'mutated'
      const found = await find(aRecord())
      assert.deepStrictEqual(found, aRecord({ response: { status: 200, body: 'original' } }))
      found!.response!.status = 500
      assert.deepStrictEqual(await find(aRecord()), aRecord({ response: { status: 200, body: 'original' } }))
    })
  })
}
