import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { CredentialRecord } from '../../../core/credentials/credential-record.ts'
import { caseRunner, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'

function aCredential(overrides: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    id: '3f0b5f8e-2a4c-4d7e-9b1a-6c2d8e4f0a11',
    issuanceId: 1,
    club: 'chess',
    jwt: 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJkaWQ6d2ViOmV4YW1wbGUifQ.c2lnbmF0dXJl',
    issuedAt: 1_900_000_001_000,
    validUntil: 1_950_000_000_000,
    statusListId: 1,
    statusListIndex: 4711,
    proof: { state: 'pending' },
    ...overrides,
  }
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** CredentialStore: core/ports/storage.ts. */
export function credentialCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('credentials', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** A club, a template and `count` issuances; returns the issuance ids. */
    async function issuances(count: number): Promise<number[]> {
      return seedIssuances(storage(), await seedTemplate(storage()), count)
    }
    /** Stores the credentials in one unit; returns the issuance ids of those stored. */
    const store = (...credentials: CredentialRecord[]) => storage().transaction((tx) => tx.credentials.insertMany(credentials))

    it('a credential read back by id and by issuance equals the credential inserted, as a plain object', async () => {
      const [issuanceId] = await issuances(1)
      const credential = aCredential({ issuanceId: issuanceId! })
      assert.deepStrictEqual(await store(credential), [issuanceId])
      const byId = await storage().credentials.findById(credential.id)
      assert.deepStrictEqual(byId, credential)
      assert.equal(Object.getPrototypeOf(byId), Object.prototype)
      assert.deepStrictEqual(await storage().credentials.findByIssuance(issuanceId!), credential)
    })

    const NOW = 1_900_000_000_000
    const LEASE = 60_000
    /** Claims for the proof round in a concurrent unit, as the worker does; answers the credentials and their attempts. */
    const claim = (now: number, limit = 10) => storage().transaction((tx) => tx.credentials.claimUnproven(now, LEASE, limit), { concurrent: true })
    const idsOf = (claimed: { credential: CredentialRecord }[]) => claimed.map(({ credential }) => credential.id)

    it('proofs: claimUnproven leases the credentials whose proof is pending, oldest first, each with its attempts, and storeProofs stores each once', async () => {
      const ids = await issuances(4)
      const [a, b, c, d] = ids.map((issuanceId, i) => aCredential({ issuanceId, id: uuid(i + 1), statusListIndex: i }))
      await store(a!, { ...b!, proof: { state: 'none' } }, c!, d!)
      assert.deepStrictEqual(await claim(NOW, 2), [
        { credential: a, attempts: 1 },
        { credential: c, attempts: 1 },
      ])
      assert.deepStrictEqual(await claim(NOW), [{ credential: d, attempts: 1 }], 'the leased ones are passed over')
      assert.deepStrictEqual(await claim(NOW + LEASE), [], 'a lease holds up to and including its last instant')

      const proof = JSON.stringify({ type: 'DataIntegrityProof', proofValue: 'z1' })
      const made = { state: 'made', json: proof } as const
      const stored = await storage().transaction((tx) =>
        tx.credentials.storeProofs([
          { id: c!.id, proof: made },
          { id: b!.id, proof: made },
          { id: uuid(99), proof: made },
        ]),
      )
      assert.equal(stored, 1, 'only the credential whose proof was pending, not the one signed before proofs (none) nor an unknown id')
      assert.deepStrictEqual(await storage().credentials.findById(c!.id), { ...c, proof: { state: 'made', json: proof } })
      assert.deepStrictEqual(await storage().credentials.findById(b!.id), { ...b, proof: { state: 'none' } })
      // A worker that died holding its lease: once the lease ended, another takes the credentials again.
      assert.deepStrictEqual(await claim(NOW + LEASE + 1), [
        { credential: a, attempts: 2 },
        { credential: d, attempts: 2 },
      ])

      // A proof once stored never changes: a second worker's proof of the same credential is not stored.
      assert.equal(await storage().transaction((tx) => tx.credentials.storeProofs([{ id: c!.id, proof: { state: 'made', json: '{"other":true}' } }])), 0)
      assert.deepStrictEqual((await storage().credentials.findByIssuance(c!.issuanceId))?.proof, { state: 'made', json: proof })
      assert.equal(await storage().transaction((tx) => tx.credentials.storeProofs([])), 0)
    })

    it('proofs: a released credential is not claimed before its retry time, then is, and the others are claimed meanwhile', async () => {
      const ids = await issuances(3)
      const [a, b, c] = ids.map((issuanceId, i) => aCredential({ issuanceId, id: uuid(i + 1), statusListIndex: i }))
      await store(a!, b!, c!)
      assert.deepStrictEqual(idsOf(await claim(NOW, 1)), [a!.id])
      const retryAt = NOW + 5_000
      await storage().transaction((tx) => tx.credentials.releaseUnproven([a!.id, uuid(99)], 'the key does not open', retryAt), { concurrent: true })
      assert.deepStrictEqual(idsOf(await claim(NOW + 1)), [b!.id, c!.id], 'a failing credential does not hold up the ones behind it')
      assert.deepStrictEqual(await claim(retryAt - 1), [])
      assert.deepStrictEqual(await claim(retryAt), [{ credential: a, attempts: 2 }])
      // A proof made meanwhile: releasing it changes nothing, it is never claimed again.
      await storage().transaction((tx) => tx.credentials.storeProofs([{ id: b!.id, proof: { state: 'made', json: '{}' } }]))
      await storage().transaction((tx) => tx.credentials.releaseUnproven([b!.id], 'late', NOW))
      assert.deepStrictEqual(idsOf(await claim(NOW + 10 * LEASE)), [a!.id, c!.id])
    })

    it('proofs: a credential released after failing, then settled as none, is never claimed again and stays none', async () => {
      // The proof round's settlement of a credential JSON-LD refuses (core/signing-queue/settle-unprovable.ts).
      const ids = await issuances(2)
      const [a, b] = ids.map((issuanceId, i) => aCredential({ issuanceId, id: uuid(i + 1), statusListIndex: i }))
      await store(a!, b!)
      assert.deepStrictEqual(idsOf(await claim(NOW)), [a!.id, b!.id])
      await storage().transaction((tx) => tx.credentials.releaseUnproven([a!.id], 'Invalid JSON-LD syntax', NOW + 1), { concurrent: true })
      assert.equal(await storage().transaction((tx) => tx.credentials.storeProofs([{ id: a!.id, proof: { state: 'none' } }]), { concurrent: true }), 1)
      assert.deepStrictEqual(await storage().credentials.findById(a!.id), { ...a, proof: { state: 'none' } })
      assert.deepStrictEqual(idsOf(await claim(NOW + 10 * LEASE)), [b!.id], 'settled: neither its retry time nor its lease brings it back')
      const proof = JSON.stringify({ type: 'DataIntegrityProof', proofValue: 'z1' })
      assert.equal(
        await storage().transaction((tx) => tx.credentials.storeProofs([{ id: a!.id, proof: { state: 'made', json: proof } }])),
        0,
        'and no proof replaces it',
      )
    })

    it('proofs: of 10 concurrent units claiming up to 5 of 30 credentials, none is returned twice and every one once', async () => {
      const ids = await issuances(30)
      const credentials = ids.map((issuanceId, i) => aCredential({ issuanceId, id: uuid(i + 1), statusListIndex: i }))
      await store(...credentials)
      const claims = await Promise.all(
        Array.from({ length: 10 }, () =>
          storage().transaction(
            async (tx) => {
              const claimed = await tx.credentials.claimUnproven(NOW, LEASE, 5)
              await turns(1)
              return claimed
            },
            { concurrent: true },
          ),
        ),
      )
      const claimed = claims.flatMap(idsOf)
      assert.equal(new Set(claimed).size, claimed.length, `claimed twice: ${claimed.join(', ')}`)
      assert.deepStrictEqual([...claimed].sort(), credentials.map((credential) => credential.id).sort())
      assert.ok(claims.every((batch) => batch.length <= 5))
    })

    it('proofs: a claim and proofs stored in a unit that fails are not kept', async () => {
      const [issuanceId] = await issuances(1)
      const credential = aCredential({ issuanceId: issuanceId! })
      await store(credential)
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.equal((await tx.credentials.claimUnproven(NOW, LEASE, 10)).length, 1)
          await tx.credentials.storeProofs([{ id: credential.id, proof: { state: 'made', json: '{}' } }])
          throw new Error('rolled back')
        }),
        /rolled back/,
      )
      assert.deepStrictEqual(await claim(NOW), [{ credential, attempts: 1 }])
    })

    it('a credential without validUntil round-trips with null', async () => {
      const [issuanceId] = await issuances(1)
      const credential = aCredential({ issuanceId: issuanceId!, validUntil: null, statusListIndex: 0 })
      await store(credential)
      assert.deepStrictEqual(await storage().credentials.findById(credential.id), credential)
    })

    it('absent credentials read as null, and findByIssuances of none or of issuances without credentials is []', async () => {
      assert.equal(await storage().credentials.findById(uuid(1)), null)
      assert.equal(await storage().credentials.findByIssuance(1), null)
      assert.deepStrictEqual(await storage().credentials.findByIssuances([]), [])
      const ids = await issuances(2)
      assert.deepStrictEqual(await storage().credentials.findByIssuances(ids), [])
      assert.equal(await storage().credentials.findByIssuance(ids[0]!), null)
    })

    it('findByIssuances returns the credentials of the issuances that have one, and no others', async () => {
      const ids = await issuances(4)
      const credentials = [ids[0]!, ids[2]!, ids[3]!].map((issuanceId, i) => aCredential({ id: uuid(i + 1), issuanceId, statusListIndex: i }))
      await store(...credentials)
      const found = await storage().credentials.findByIssuances([ids[1]!, ids[2]!, ids[0]!, 9999])
      assert.deepStrictEqual(
        found.sort((a, b) => a.issuanceId - b.issuanceId),
        [credentials[0], credentials[1]].sort((a, b) => a!.issuanceId - b!.issuanceId),
      )
      assert.deepStrictEqual(await storage().credentials.findByIssuances([ids[3]!, ids[3]!]), [credentials[2]])
    })

    it('a second credential for the same issuance is skipped and the first stays', async () => {
      const [issuanceId] = await issuances(1)
      const first = aCredential({ issuanceId: issuanceId!, id: uuid(1), statusListIndex: 1 })
      await store(first)
      assert.deepStrictEqual(await store(aCredential({ issuanceId: issuanceId!, id: uuid(2), statusListIndex: 2, jwt: 'other' })), [])
      assert.deepStrictEqual(await storage().credentials.findByIssuance(issuanceId!), first)
      assert.equal(await storage().credentials.findById(uuid(2)), null)
    })

    it('a credential with an existing id is skipped, also for another issuance', async () => {
      const [a, b] = await issuances(2)
      const first = aCredential({ issuanceId: a!, id: uuid(1), statusListIndex: 1 })
      await store(first)
      assert.deepStrictEqual(await store(aCredential({ issuanceId: b!, id: uuid(1), statusListIndex: 2 })), [])
      assert.deepStrictEqual(await storage().credentials.findById(uuid(1)), first)
      assert.equal(await storage().credentials.findByIssuance(b!), null)
    })

    it('of 20 concurrent units storing credentials for one issuance exactly one stores it, the others skip theirs', async () => {
      const [issuanceId] = await issuances(1)
      const contenders = Array.from({ length: 20 }, (_, i) => aCredential({ issuanceId: issuanceId!, id: uuid(i + 1), statusListIndex: i }))
      const results = await Promise.all(contenders.map((credential) => store(credential)))
      const winners = contenders.filter((_, i) => results[i]!.length > 0)
      assert.equal(winners.length, 1, `${winners.length} units stored theirs`)
      assert.deepStrictEqual(results.flat(), [issuanceId])
      assert.deepStrictEqual(await storage().credentials.findByIssuance(issuanceId!), winners[0])
      assert.deepStrictEqual(await storage().credentials.findByIssuances([issuanceId!]), [winners[0]])
      for (const loser of contenders.filter((credential) => credential !== winners[0])) {
        assert.equal(await storage().credentials.findById(loser.id), null)
      }
    })

    it('of 20 concurrent units that each check for a credential and then store one, exactly one stores it', async () => {
      const [issuanceId] = await issuances(1)
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          storage().transaction(async (tx) => {
            if (await tx.credentials.findByIssuance(issuanceId!)) return 'already'
            await new Promise((resolve) => setImmediate(resolve))
            const stored = await tx.credentials.insertMany([aCredential({ issuanceId: issuanceId!, id: uuid(i + 1), statusListIndex: i })])
            return stored.length > 0 ? 'inserted' : 'skipped'
          }),
        ),
      )
      assert.equal(outcomes.filter((outcome) => outcome === 'inserted').length, 1, outcomes.join(', '))
      assert.ok(await storage().credentials.findByIssuance(issuanceId!))
    })

    it('a credential inserted in a rolled-back unit is gone, and its issuance and its id are free again', async () => {
      const [issuanceId, other] = await issuances(2)
      const failure = new Error('roll back')
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.credentials.insertMany([aCredential({ issuanceId: issuanceId!, id: uuid(1) })])
          throw failure
        }),
        (error) => error === failure,
      )
      assert.equal(await storage().credentials.findById(uuid(1)), null)
      assert.equal(await storage().credentials.findByIssuance(issuanceId!), null)
      assert.deepStrictEqual(await storage().credentials.findByIssuances([issuanceId!]), [])
      const second = aCredential({ issuanceId: issuanceId!, id: uuid(2) })
      assert.deepStrictEqual(await store(second), [issuanceId])
      assert.deepStrictEqual(await storage().credentials.findByIssuance(issuanceId!), second)
      assert.deepStrictEqual(await store(aCredential({ issuanceId: other!, id: uuid(1), statusListIndex: 1 })), [other])
      assert.equal((await storage().credentials.findById(uuid(1)))?.issuanceId, other)
    })

    it("a credential skipped inside a unit keeps the unit usable and the unit's other credentials stored", async () => {
      const [a, b] = await issuances(2)
      const outcome = await storage().transaction(async (tx) => [
        await tx.credentials.insertMany([aCredential({ issuanceId: a!, id: uuid(1), statusListIndex: 1 })]),
        await tx.credentials.insertMany([aCredential({ issuanceId: a!, id: uuid(2), statusListIndex: 2 })]),
        await tx.credentials.insertMany([aCredential({ issuanceId: b!, id: uuid(3), statusListIndex: 3 })]),
      ])
      assert.deepStrictEqual(outcome, [[a], [], [b]])
      assert.equal((await storage().credentials.findByIssuance(a!))?.id, uuid(1))
      assert.equal((await storage().credentials.findByIssuance(b!))?.id, uuid(3))
      assert.equal(await storage().credentials.findById(uuid(2)), null)
    })

    it('changing an inserted or returned credential changes nothing stored', async () => {
      const [issuanceId] = await issuances(1)
      const credential = aCredential({ issuanceId: issuanceId! })
      await store(credential)
      credential.jwt = 'mutated'
      const found = await storage().credentials.findByIssuance(issuanceId!)
      assert.deepStrictEqual(found, aCredential({ issuanceId: issuanceId! }))
      found!.jwt = 'mutated after read'
      assert.deepStrictEqual(await storage().credentials.findById(found!.id), aCredential({ issuanceId: issuanceId! }))
    })
  })
}
