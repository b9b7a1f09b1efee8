import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { CredentialRecord } from '../../../core/credentials/credential-record.ts'
import type { NewResendRequest } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'

const NOW = 1_900_000_000_000

function aCredential(issuanceId: number, n: number): CredentialRecord {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    issuanceId,
    club: 'chess',
    jwt: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln',
    issuedAt: NOW,
    validUntil: null,
    statusListId: 1,
    statusListIndex: n,
    proof: { state: 'pending' },
  }
}

/** ResendStore: core/ports/storage.ts. */
export function resendCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('resends', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    const insert = (request: NewResendRequest) => storage().transaction((tx) => tx.resends.insert(request))
    const request = (issuanceId: number, requestedAt: number, mailedAt: number | null = null): NewResendRequest => ({
      club: 'chess',
      issuanceId,
      requestedAt,
      mailedAt,
    })

    it('a request read back equals the request inserted, as a plain object, with increasing ids', async () => {
      const [issuanceId] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      const first = await insert(request(issuanceId!, NOW))
      const second = await insert(request(issuanceId!, NOW + 1, NOW + 1))
      assert.deepStrictEqual(first, { id: first.id, ...request(issuanceId!, NOW) })
      assert.equal(Object.getPrototypeOf(first), Object.prototype)
      assert.ok(second.id > first.id, `ids ${first.id}, ${second.id}`)
      const listed = await storage().resends.listSince('chess', issuanceId!, NOW - 1)
      assert.deepStrictEqual(listed, [first, second])
      assert.equal(Object.getPrototypeOf(listed[0]), Object.prototype)
    })

    it("listSince holds the issuance's requests after `since` (strictly), oldest first, of that club only", async () => {
      const [a, b] = await seedIssuances(storage(), await seedTemplate(storage()), 2)
      const late = await insert(request(a!, NOW + 20))
      const early = await insert(request(a!, NOW + 10))
      await insert(request(a!, NOW))
      await insert(request(b!, NOW + 30))
      assert.deepStrictEqual(await storage().resends.listSince('chess', a!, NOW), [early, late])
      assert.deepStrictEqual(await storage().resends.listSince('chess', a!, NOW + 20), [])
      assert.deepStrictEqual(await storage().resends.listSince('go', a!, 0), [], 'another club sees none')
      assert.deepStrictEqual(await storage().resends.listSince('chess', 999_999, 0), [], 'an unknown issuance has none')
    })

    it('listMailable holds the unmailed requests whose issuance has a credential, oldest first, at most limit', async () => {
      const [signed, pending, other] = await seedIssuances(storage(), await seedTemplate(storage()), 3)
      await storage().transaction((tx) => tx.credentials.insertMany([aCredential(signed!, 1), aCredential(other!, 2)]))
      const first = await insert(request(signed!, NOW))
      await insert(request(pending!, NOW))
      await insert(request(signed!, NOW, NOW))
      const third = await insert(request(other!, NOW))
      assert.deepStrictEqual(await storage().resends.listMailable(10), [first, third])
      assert.deepStrictEqual(await storage().resends.listMailable(1), [first])
    })

    it('markMailed sets mailedAt once: of concurrent calls exactly one gets true, and the request is no longer mailable', async () => {
      const [issuanceId] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      await storage().transaction((tx) => tx.credentials.insertMany([aCredential(issuanceId!, 1)]))
      const stored = await insert(request(issuanceId!, NOW))
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, (_, i) => storage().transaction((tx) => tx.resends.markMailed(stored.id, NOW + i), { concurrent: true })),
      )
      assert.equal(outcomes.filter(Boolean).length, 1, `outcomes ${outcomes.join(', ')}`)
      assert.deepStrictEqual(await storage().resends.listMailable(10), [])
      const [read] = await storage().resends.listSince('chess', issuanceId!, 0)
      assert.equal(read!.mailedAt, NOW + outcomes.indexOf(true))
      assert.equal(await storage().transaction((tx) => tx.resends.markMailed(987_654, NOW)), false, 'an unknown id')
    })

    it('a request inserted in a unit that throws is gone', async () => {
      const [issuanceId] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.resends.insert(request(issuanceId!, NOW))
          throw new Error('rolled back')
        }),
        /rolled back/,
      )
      assert.deepStrictEqual(await storage().resends.listSince('chess', issuanceId!, 0), [])
    })
  })
}
