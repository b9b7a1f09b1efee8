import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { Issuance } from '../../../core/issuances/issuance.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { aNewTemplate, anIssuance, seedTemplate } from './issuances.cases.ts'

const END = Number.MAX_SAFE_INTEGER

/** ExpiryStore and the template's expiryReminders: core/ports/storage.ts. */
export function expiryCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('expiry', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** Issuances of the seed's template expiring at these times (ms; `null` for never), inserted in this order. */
    async function seedExpiring(expiries: (number | null)[]): Promise<Issuance[]> {
      const seed = await seedTemplate(storage())
      return storage().transaction(async (tx) => {
        const stored: Issuance[] = []
        for (const [i, expiresAt] of expiries.entries()) {
          stored.push(
            await tx.issuances.insert(anIssuance(seed, { expiresAt, recipient: { externalUserId: `m-${i}`, name: `M ${i}`, email: `m${i}@example.org` } })),
          )
        }
        return stored
      })
    }

    it("a template's expiry reminders are stored, updated and listed among every club's templates that have some", async () => {
      await storage().transaction(async (tx) => {
        await tx.clubs.insert({ domain: 'chess', name: 'Chess', canIssue: true, issuerVerified: false, createdAt: 1 })
        await tx.clubs.insert({ domain: 'go', name: 'Go', canIssue: true, issuerVerified: false, createdAt: 1 })
      })
      const none = await storage().transaction((tx) => tx.achievements.insert(aNewTemplate()))
      const some = await storage().transaction((tx) => tx.achievements.insert(aNewTemplate({ club: 'go', expiryReminders: ['P30D', 'PT1H'] })))
      assert.deepStrictEqual(none.expiryReminders, [])
      assert.deepStrictEqual((await storage().achievements.findById('go', some.id))?.expiryReminders, ['P30D', 'PT1H'])
      assert.deepStrictEqual(await storage().expiry.listTemplatesWithReminders(), [{ id: some.id, club: 'go', expiryReminders: ['P30D', 'PT1H'] }])
      await storage().transaction((tx) => tx.achievements.update({ ...none, expiryReminders: ['P7D'] }))
      await storage().transaction((tx) => tx.achievements.update({ ...some, expiryReminders: [] }))
      assert.deepStrictEqual(await storage().expiry.listTemplatesWithReminders(), [{ id: none.id, club: 'chess', expiryReminders: ['P7D'] }])
    })

    it('a sweep position is null before its first advance and only ever moves forward', async () => {
      assert.equal(await storage().expiry.position('reminder P30D'), null)
      await storage().transaction((tx) => tx.expiry.advance('reminder P30D', { at: 100, sequence: 5 }))
      await storage().transaction((tx) => tx.expiry.advance('reminder P30D', { at: 100, sequence: 4 }))
      await storage().transaction((tx) => tx.expiry.advance('reminder P30D', { at: 99, sequence: END }))
      assert.deepStrictEqual(await storage().expiry.position('reminder P30D'), { at: 100, sequence: 5 })
      await storage().transaction((tx) => tx.expiry.advance('reminder P30D', { at: 100, sequence: END }))
      assert.deepStrictEqual(await storage().expiry.position('reminder P30D'), { at: 100, sequence: END })
      await storage().transaction((tx) => tx.expiry.advance('reminder P7D', { at: 7, sequence: 0 }))
      assert.deepStrictEqual(await storage().expiry.position('reminder P7D'), { at: 7, sequence: 0 })
      assert.deepStrictEqual(await storage().expiry.position('reminder P30D'), { at: 100, sequence: END }, 'each sweep has its own')
    })

    it('issuances after a sequence come lowest first, at most limit', async () => {
      const stored = await seedExpiring([null, 1_950_000_000_000, null])
      assert.deepStrictEqual(await storage().expiry.listIssuedAfter(stored[0]!.sequence, 1), [stored[1]])
      assert.deepStrictEqual(await storage().expiry.listIssuedAfter(0, 10), stored)
      assert.deepStrictEqual(await storage().expiry.listIssuedAfter(stored[2]!.sequence, 10), [])
    })

    it('listValidUntil walks the unrevoked issuances by validUntil then sequence, after a position, up to a time', async () => {
      // validUntil is expiresAt rounded up to the second: 1_950_000_000_500 becomes 1_950_000_001_000.
      const stored = await seedExpiring([1_950_000_002_000, 1_950_000_000_500, null, 1_950_000_001_000, 1_950_000_003_000, 1_950_000_001_000])
      await storage().transaction((tx) => tx.issuances.revoke('chess', stored[5]!.id, 1_900_000_000_000, null))
      const walk = (after: { at: number; sequence: number }, until: number, limit = 10) =>
        storage()
          .expiry.listValidUntil(after, until, limit)
          .then((rows) => rows.map((row) => row.id))
      assert.deepStrictEqual(await walk({ at: 0, sequence: 0 }, 1_950_000_002_000), [stored[1]!.id, stored[3]!.id, stored[0]!.id])
      assert.deepStrictEqual(await walk({ at: 1_950_000_001_000, sequence: stored[1]!.sequence }, 1_960_000_000_000), [
        stored[3]!.id,
        stored[0]!.id,
        stored[4]!.id,
      ])
      assert.deepStrictEqual(await walk({ at: 1_950_000_001_000, sequence: END }, 1_960_000_000_000, 1), [stored[0]!.id])
      assert.deepStrictEqual((await storage().expiry.listValidUntil({ at: 0, sequence: 0 }, 1_950_000_001_000, 1))[0], stored[1])
    })

    it('a notice is recorded once per issuance and name, also under concurrent calls, and listed oldest first', async () => {
      const [one, two] = await seedExpiring([1_950_000_000_000, 1_950_000_000_000])
      const firsts = await Promise.all(
        Array.from({ length: 5 }, () => storage().transaction((tx) => tx.expiry.recordNotice(one!.id, 'P7D', 1_949_000_000_000), { concurrent: true })),
      )
      assert.equal(firsts.filter(Boolean).length, 1)
      assert.equal(await storage().transaction((tx) => tx.expiry.recordNotice(one!.id, 'expired', 1_950_000_000_000)), true)
      assert.equal(await storage().transaction((tx) => tx.expiry.recordNotice(two!.id, 'P7D', 1_949_000_000_001)), true, "another issuance's notice is its own")
      assert.deepStrictEqual(await storage().expiry.listNotices(one!.id), [
        { notice: 'P7D', at: 1_949_000_000_000 },
        { notice: 'expired', at: 1_950_000_000_000 },
      ])
      assert.deepStrictEqual(await storage().expiry.listNotices(123), [])
    })

    it('a notice recorded in a unit that rolls back is not recorded', async () => {
      const [one] = await seedExpiring([1_950_000_000_000])
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.expiry.recordNotice(one!.id, 'expired', 1)
          await tx.expiry.advance('reminder P1D', { at: 5, sequence: 5 })
          throw new Error('boom')
        }),
        /boom/,
      )
      assert.deepStrictEqual(await storage().expiry.listNotices(one!.id), [])
      assert.equal(await storage().expiry.position('reminder P1D'), null)
    })
  })
}
