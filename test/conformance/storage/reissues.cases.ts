import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { CredentialRecord } from '../../../core/credentials/credential-record.ts'
import type { IssuanceAmendment, ReissueRecord } from '../../../core/reissues/reissue-record.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'

const NOW = 1_900_000_100_000
const LEASE = 60_000

function aCredential(issuanceId: number, overrides: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    id: '0190b5f8-2a4c-7d7e-9b1a-6c2d8e4f0a11',
    issuanceId,
    club: 'chess',
    jwt: 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjoxfQ.Zmlyc3Q',
    issuedAt: 1_900_000_001_000,
    validUntil: null,
    statusListId: 1,
    statusListIndex: 17,
    proof: { state: 'made', json: '{"type":"DataIntegrityProof"}' },
    ...overrides,
  }
}

/** ReissueStore: core/reissues/reissue-store.ts (docs/decisions/0046-reissue.md). */
export function reissueCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('reissues', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    async function oneIssuance(): Promise<number> {
      const [id] = await seedIssuances(storage(), await seedTemplate(storage()), 1)
      return id!
    }
    async function signed(overrides: Partial<CredentialRecord> = {}): Promise<CredentialRecord> {
      const credential = aCredential(await oneIssuance(), overrides)
      await storage().transaction((tx) => tx.credentials.insertMany([credential]))
      return credential
    }
    const supersede = (next: CredentialRecord, previousJwt: string, now = NOW) =>
      storage().transaction((tx) => tx.reissues.supersede(next, previousJwt, now), { concurrent: true })

    it('amend writes the recipient, evidences, expiry, snapshot and mode of an issuance not revoked', async () => {
      const id = await oneIssuance()
      const before = (await storage().issuances.findById('chess', id))!
      const amendment: IssuanceAmendment = {
        recipient: { externalUserId: 'member-0', name: 'Kim Minjun', email: 'minjun@example.org' },
        evidences: [{ url: 'https://example.org/e', name: 'Game', description: null, isPublic: true }],
        expiresAt: 1_960_000_000_000,
        snapshotId: before.snapshotId,
        mode: 'email',
      }
      assert.equal(await storage().transaction((tx) => tx.reissues.amend('chess', id, amendment)), true)
      assert.deepStrictEqual(await storage().issuances.findById('chess', id), { ...before, ...amendment })
    })

    it('amend changes nothing of a revoked issuance, nor of another club', async () => {
      const id = await oneIssuance()
      await storage().transaction((tx) => tx.issuances.revoke('chess', id, NOW, null))
      const before = (await storage().issuances.findById('chess', id))!
      const amendment: IssuanceAmendment = { ...before, recipient: { ...before.recipient, name: 'Changed' } }
      assert.equal(await storage().transaction((tx) => tx.reissues.amend('chess', id, amendment)), false)
      assert.equal(await storage().transaction((tx) => tx.reissues.amend('other', id, amendment)), false)
      assert.deepStrictEqual(await storage().issuances.findById('chess', id), before)
    })

    it('queueSigning queues a job when the issuance has none and keeps the one it has', async () => {
      const id = await oneIssuance()
      await storage().transaction((tx) => tx.reissues.queueSigning(id, 'chess'))
      assert.equal(await storage().signingJobs.count(), 1)
      const [claimed] = await storage().transaction((tx) => tx.signingJobs.claim(NOW, LEASE, 10), { concurrent: true })
      assert.equal(claimed!.issuanceId, id)
      await storage().transaction((tx) => tx.reissues.queueSigning(id, 'chess'))
      assert.equal(await storage().signingJobs.count(), 1)
      // The job kept its lease: no second claim gets it while the lease runs.
      assert.deepStrictEqual(await storage().transaction((tx) => tx.signingJobs.claim(NOW + 1, LEASE, 10), { concurrent: true }), [])
    })

    it('reissues come back by either issuance, in the order recorded, as plain objects', async () => {
      await seedTemplate(storage())
      const records: ReissueRecord[] = [
        { club: 'chess', issuanceId: 11, previousIssuanceId: null, reason: 'typo', awardedAt: null, reissuedAt: NOW },
        { club: 'chess', issuanceId: 12, previousIssuanceId: 11, reason: null, awardedAt: 1_900_000_001_000, reissuedAt: NOW + 1 },
        { club: 'other', issuanceId: 11, previousIssuanceId: null, reason: null, awardedAt: null, reissuedAt: NOW + 2 },
      ]
      await storage().transaction(async (tx) => {
        for (const record of records) await tx.reissues.insert(record)
      })
      const found = await storage().reissues.listByIssuances('chess', [11])
      assert.deepStrictEqual(found, records.slice(0, 2))
      assert.equal(Object.getPrototypeOf(found[0]), Object.prototype)
      assert.deepStrictEqual(await storage().reissues.listByIssuances('chess', [12]), [records[1]])
      assert.deepStrictEqual(await storage().reissues.listByIssuances('chess', [99]), [])
      assert.deepStrictEqual(await storage().reissues.listByIssuances('chess', []), [])
    })

    it('an event naming the issuance a re-route moved from comes back with it, in append and appendMany; others without the member', async () => {
      await seedTemplate(storage())
      const moved = {
        club: 'chess',
        type: 'issuance.reissued' as const,
        subject: { type: 'issuance' as const, id: '12' },
        occurredAt: NOW,
        previousIssuanceId: '11',
      }
      const plain = { club: 'chess', type: 'issuance.reissued' as const, subject: { type: 'issuance' as const, id: '13' }, occurredAt: NOW }
      const [a] = await storage().transaction((tx) => tx.events.appendMany([moved, plain]))
      const b = await storage().transaction((tx) => tx.events.append(moved))
      const listed = await storage().events.list('chess', { limit: 10, beforeId: null })
      assert.deepStrictEqual(listed, [
        { ...moved, id: b },
        { ...plain, id: a! + 1 },
        { ...moved, id: a },
      ])
    })

    it('supersede makes the new version the credential and keeps the earlier one unchanged, proof included', async () => {
      const first = await signed()
      const second = {
        ...first,
        jwt: 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjoyfQ.c2Vjb25k',
        issuedAt: first.issuedAt + 5000,
        validUntil: 1_960_000_000_000,
        proof: { state: 'pending' as const },
      }
      assert.equal(await supersede(second, first.jwt), 'superseded')
      assert.deepStrictEqual(await storage().credentials.findById(first.id), second)
      assert.deepStrictEqual(await storage().credentials.findByIssuance(first.issuanceId), second)
      const third = { ...second, jwt: 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjozfQ.dGhpcmQ', issuedAt: second.issuedAt + 5000 }
      assert.equal(await supersede(third, second.jwt), 'superseded')
      const earlier = await storage().reissues.listEarlierVersions(first.id)
      assert.deepStrictEqual(earlier, [
        { ...second, version: 2 },
        { ...first, version: 1 },
      ])
      assert.equal(Object.getPrototypeOf(earlier[0]), Object.prototype)
      assert.deepStrictEqual(await storage().reissues.listEarlierVersions('no-such-credential'), [])
    })

    it('supersede of a version that is no longer the credential changes nothing', async () => {
      const first = await signed()
      const next = { ...first, jwt: 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjoyfQ.c2Vjb25k', proof: { state: 'pending' as const } }
      assert.equal(await supersede(next, 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjowfQ.b3RoZXI'), 'outdated')
      assert.equal(await supersede({ ...next, id: 'no-such-credential' }, first.jwt), 'outdated')
      assert.deepStrictEqual(await storage().credentials.findById(first.id), first)
      assert.deepStrictEqual(await storage().reissues.listEarlierVersions(first.id), [])
    })

    it('supersede waits while the proof round holds the credential, and goes ahead once its lease ended', async () => {
      const first = await signed({ proof: { state: 'pending' as const } })
      const [claimed] = await storage().transaction((tx) => tx.credentials.claimUnproven(NOW, LEASE, 10), { concurrent: true })
      assert.equal(claimed!.credential.id, first.id)
      const next = { ...first, jwt: 'eyJhbGciOiJFUzI1NiJ9.eyJ2IjoyfQ.c2Vjb25k' }
      assert.equal(await supersede(next, first.jwt, NOW + 1), 'proving')
      assert.deepStrictEqual(await storage().credentials.findById(first.id), first)
      assert.equal(await supersede(next, first.jwt, NOW + LEASE + 1), 'superseded')
      // The new version is the proof round's to prove afresh; a stale proof for the old JWT is not stored over it by a claim.
      const reclaimed = await storage().transaction((tx) => tx.credentials.claimUnproven(NOW + LEASE + 2, LEASE, 10), { concurrent: true })
      assert.deepStrictEqual(
        reclaimed.map((c) => c.credential),
        [next],
      )
    })

    it('of concurrent supersedes of one version exactly one stores its version', async () => {
      const first = await signed()
      const nexts = [2, 3, 4, 5].map((n) => ({ ...first, jwt: `eyJhbGciOiJFUzI1NiJ9.eyJ2Ijo${n}fQ.c2ln`, proof: { state: 'pending' as const } }))
      const outcomes = await Promise.all(nexts.map((next) => supersede(next, first.jwt)))
      assert.equal(outcomes.filter((o) => o === 'superseded').length, 1)
      assert.equal(outcomes.filter((o) => o === 'outdated').length, 3)
      assert.equal((await storage().reissues.listEarlierVersions(first.id)).length, 1)
    })
  })
}
