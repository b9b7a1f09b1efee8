import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { anIssuance, seedIssuances, seedTemplate } from './issuances.cases.ts'

/** ShareViewStore: core/ports/storage.ts. */
export function shareViewCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('share views', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** Signed credentials of fresh issuances; returns their ids. */
    async function credentials(count: number): Promise<string[]> {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), count)
      const credentialIds = ids.map((_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`)
      await storage().transaction((tx) =>
        tx.credentials.insertMany(
          ids.map((issuanceId, i) => ({
            id: credentialIds[i]!,
            issuanceId,
            club: 'chess',
            jwt: 'e30.e30.c2ln',
            issuedAt: 1_900_000_001_000,
            validUntil: null,
            statusListId: 1,
            statusListIndex: i,
            proof: { state: 'pending' },
          })),
        ),
      )
      return credentialIds
    }

    it('counts add up per credential and keep the latest view; a credential never viewed is null', async () => {
      const [one, two] = await credentials(2)
      assert.equal(await storage().shareViews.find(one!), null)
      await storage().transaction((tx) => tx.shareViews.add([{ credentialId: one!, views: 3, lastViewedAt: 1_900_000_002_000 }]))
      await storage().transaction((tx) =>
        tx.shareViews.add([
          { credentialId: one!, views: 2, lastViewedAt: 1_900_000_001_500 },
          { credentialId: two!, views: 1, lastViewedAt: 1_900_000_003_000 },
        ]),
      )
      assert.deepStrictEqual(await storage().shareViews.find(one!), { views: 5, lastViewedAt: 1_900_000_002_000 })
      assert.deepStrictEqual(await storage().shareViews.find(two!), { views: 1, lastViewedAt: 1_900_000_003_000 })
    })

    it('counts added at once from concurrent units all add up', async () => {
      const [one, two] = await credentials(2)
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          storage().transaction(
            (tx) =>
              tx.shareViews.add([
                { credentialId: one!, views: 1, lastViewedAt: 1_900_000_000_000 + i },
                { credentialId: two!, views: 2, lastViewedAt: 1_900_000_000_000 },
              ]),
            { concurrent: true },
          ),
        ),
      )
      assert.deepStrictEqual(await storage().shareViews.find(one!), { views: 8, lastViewedAt: 1_900_000_000_007 })
      assert.deepStrictEqual(await storage().shareViews.find(two!), { views: 16, lastViewedAt: 1_900_000_000_000 })
    })
  })
}

/** ActivityStore: core/ports/storage.ts. */
export function activityCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('activity', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const WEEK = 7 * 86_400_000
    const FROM = 1_900_000_000_000

    it("counts a club's issuances made, first claims and validUntil per week, within the weeks asked", async () => {
      const seed = await seedTemplate(storage())
      const made = [FROM - 1, FROM, FROM + 1, FROM + WEEK + 5, FROM + 3 * WEEK]
      const stored = await storage().transaction(async (tx) => {
        const rows = []
        for (const [i, createdAt] of made.entries()) {
          const expiresAt = i === 1 ? FROM + 2 * WEEK + 10 : i === 2 ? FROM + 2 * WEEK - 1 : null
          rows.push(
            await tx.issuances.insert(
              anIssuance(seed, { createdAt, expiresAt, recipient: { externalUserId: `a-${i}`, name: `A ${i}`, email: `a${i}@example.org` } }),
            ),
          )
        }
        return rows
      })
      await storage().transaction(async (tx) => {
        await tx.claims.record({ issuanceId: stored[1]!.id, club: 'chess', via: 'lcw', format: 'ldp_vc', at: FROM + WEEK })
        await tx.claims.record({ issuanceId: stored[1]!.id, club: 'chess', via: 'lcw', format: 'ldp_vc', at: FROM + 2 * WEEK })
        await tx.claims.record({ issuanceId: stored[2]!.id, club: 'chess', via: 'oid4vci', format: 'jwt_vc_json', at: FROM + 2 })
        await tx.issuances.revoke('chess', stored[2]!.id, FROM + 3, null)
      })
      assert.deepStrictEqual(await storage().activity.weekly('chess', FROM, WEEK, 3), {
        issued: [2, 1, 0],
        claimed: [1, 1, 0],
        expiring: [0, 0, 1],
      })
      assert.deepStrictEqual(await storage().activity.weekly('go', FROM, WEEK, 2), { issued: [0, 0], claimed: [0, 0], expiring: [0, 0] })
    })
  })
}
