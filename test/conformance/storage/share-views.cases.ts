import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'

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
            proof: null,
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
