import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { IssuanceClaim } from '../../../core/issuances/issuance-claim.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'

/** IssuanceClaimStore and the `claimed` filter of IssuanceStore.search: core/ports/storage.ts. */
export function issuanceClaimCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('issuance claims', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const claim = (issuanceId: number, overrides: Partial<IssuanceClaim> = {}): IssuanceClaim => ({
      issuanceId,
      club: 'chess',
      via: 'oid4vci',
      format: 'jwt_vc_json',
      at: 1_900_000_010_000,
      ...overrides,
    })

    it('an issuance never claimed has no claims', async () => {
      const [id] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      assert.deepEqual(await storage().claims.listByIssuance(id!), [])
    })

    it('the first claim of an issuance is first, later ones are not, and all are kept oldest first', async () => {
      const [id, other] = await seedIssuances(storage(), await seedTemplate(storage()), 2)
      const taken = [
        claim(id!, { at: 1_900_000_010_000 }),
        claim(id!, { via: 'lcw', format: 'ldp_vc', at: 1_900_000_030_000 }),
        claim(id!, { format: 'ldp_vc', at: 1_900_000_020_000 }),
      ]
      const firsts = []
      for (const one of taken) firsts.push(await storage().transaction((tx) => tx.claims.record(one)))
      assert.deepEqual(firsts, [true, false, false])
      assert.deepEqual(await storage().claims.listByIssuance(id!), [taken[0], taken[2], taken[1]])
      assert.equal(await storage().transaction((tx) => tx.claims.record(claim(other!))), true, 'another issuance has a first claim of its own')
    })

    it('of concurrent first claims of one issuance exactly one is first, and every claim is stored', async () => {
      const [id] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      const firsts = await Promise.all(
        Array.from({ length: 6 }, (_, i) => storage().transaction((tx) => tx.claims.record(claim(id!, { at: 1_900_000_010_000 + i })), { concurrent: true })),
      )
      assert.equal(firsts.filter(Boolean).length, 1)
      assert.equal((await storage().claims.listByIssuance(id!)).length, 6)
    })

    it('a claim recorded in a unit that rolls back leaves nothing, and the next claim is first', async () => {
      const [id] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.claims.record(claim(id!))
          throw new Error('boom')
        }),
        /boom/,
      )
      assert.deepEqual(await storage().claims.listByIssuance(id!), [])
      assert.equal(await storage().transaction((tx) => tx.claims.record(claim(id!))), true)
    })

    it('search keeps only the claimed issuances, or only the unclaimed, newest first and keyset-paged', async () => {
      const seed = await seedTemplate(storage())
      const ids = await seedIssuances(storage(), seed, 6)
      const claimed = [ids[0]!, ids[3]!, ids[4]!]
      for (const id of claimed) await storage().transaction((tx) => tx.claims.record(claim(id)))
      await storage().transaction((tx) => tx.claims.record(claim(ids[3]!, { at: 1_900_000_090_000 })))
      const search = (claimedFilter: boolean | null, afterSequence: number | null = null, limit = 100) =>
        storage().issuances.search('chess', {
          limit,
          afterSequence,
          achievementId: null,
          status: null,
          now: 1_900_000_100_000,
          recipient: null,
          claimed: claimedFilter,
        })
      assert.deepEqual(
        (await search(true)).map((i) => i.id),
        [...claimed].reverse(),
      )
      assert.deepEqual(
        (await search(false)).map((i) => i.id),
        [ids[5]!, ids[2]!, ids[1]!],
      )
      assert.equal((await search(null)).length, 6)
      const first = await search(true, null, 2)
      assert.deepEqual(
        first.map((i) => i.id),
        [ids[4]!, ids[3]!],
      )
      assert.deepEqual(
        (await search(true, first.at(-1)!.sequence, 2)).map((i) => i.id),
        [ids[0]!],
      )
    })
  })
}
