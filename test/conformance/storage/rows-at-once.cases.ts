import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import type { CredentialRecord } from '../../../core/credentials/credential-record.ts'
import type { ClubEvent, NewOutboxMessage, NewWebhookDelivery } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { anIssuance, seedIssuances, seedTemplate } from './issuances.cases.ts'
import { anEndpoint } from './webhooks.cases.ts'

const NOW = 1_900_000_000_000
/** More rows than one multi-row statement of the SQLite adapter takes (256), and not a power of two. */
const MANY = 300

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

function aCredential(issuanceId: number, n: number): CredentialRecord {
  return {
    id: uuid(n),
    issuanceId,
    club: 'chess',
    jwt: `eyJhbGciOiJFUzI1NiJ9.eyJuIjo${n}fQ.c2ln-${n}`,
    issuedAt: NOW + n,
    validUntil: n % 2 === 0 ? null : NOW + 1000 + n,
    statusListId: 1,
    statusListIndex: n,
    proof: { state: 'pending' },
  }
}

/** The methods that write many rows at once: each row as if written alone, in the order given, across statement chunks. */
export function rowsAtOnceCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('rows at once', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('issuances.insertMany stores each issuance with sequences increasing in the order given, and skips each whose id exists', async () => {
      const seed = await seedTemplate(storage())
      const [taken] = await seedIssuances(storage(), seed, 1)
      const fresh = Array.from({ length: MANY }, (_, n) =>
        anIssuance(seed, { id: 10_000 + n * 7, recipient: { externalUserId: n % 2 ? null : `m${n}`, name: `M ${n}`, email: `m${n}@example.org` } }),
      )
      const given = [...fresh.slice(0, 5), anIssuance(seed, { id: taken! }), ...fresh.slice(5), anIssuance(seed, { id: fresh[3]!.id, createdAt: 1 })]
      const result = await storage().transaction((tx) => tx.issuances.insertMany(given))
      assert.equal(result.length, given.length)
      assert.equal(result[5], null, 'an id that exists')
      assert.equal(result[given.length - 1], null, 'an id earlier in the call')
      const stored = result.filter((issuance) => issuance !== null)
      assert.deepStrictEqual(
        stored.map(({ sequence, ...issuance }) => issuance),
        fresh,
      )
      for (let i = 1; i < stored.length; i++) assert.ok(stored[i]!.sequence > stored[i - 1]!.sequence, `sequence ${i}`)
      for (const issuance of [stored[0]!, stored[MANY - 1]!]) assert.deepStrictEqual(await storage().issuances.findById('chess', issuance.id), issuance)
      const later = await storage().transaction((tx) => tx.issuances.insert(anIssuance(seed)))
      assert.ok(later.sequence > stored[MANY - 1]!.sequence)
      const page = await storage().issuances.list('chess', { limit: MANY + 2, beforeSequence: null })
      assert.deepStrictEqual(
        page.map((issuance) => issuance.id),
        [later.id, ...fresh.map((issuance) => issuance.id).reverse(), taken],
      )
      assert.deepStrictEqual(await storage().transaction((tx) => tx.issuances.insertMany([])), [])
    })

    it('appendMany gives increasing ids in the order given, across chunks, each event listed back equal', async () => {
      const events: Omit<ClubEvent, 'id'>[] = Array.from({ length: MANY }, (_, n) => ({
        club: n % 3 === 0 ? 'go' : 'chess',
        type: n % 2 === 0 ? 'issuance.issued' : 'issuance.credential_issued',
        subject: { type: 'issuance', id: String(1000 + n) },
        occurredAt: NOW + n,
      }))
      const [before] = await storage().transaction((tx) => tx.events.appendMany([{ ...events[0]!, club: 'other' }]))
      const ids = await storage().transaction((tx) => tx.events.appendMany(events))
      const [after] = await storage().transaction(async (tx) => [await tx.events.append({ ...events[0]!, club: 'other' })])
      assert.equal(ids.length, MANY)
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids[${i}]`)
      assert.ok(ids[0]! > before! && after! > ids[MANY - 1]!)
      const stored = events.map((event, i) => ({ ...event, id: ids[i]! }))
      assert.deepStrictEqual(await storage().events.list('chess', { limit: MANY, beforeId: null }), stored.filter((e) => e.club === 'chess').reverse())
      assert.deepStrictEqual(await storage().events.list('go', { limit: MANY, beforeId: null }), stored.filter((e) => e.club === 'go').reverse())
      assert.deepStrictEqual(await storage().transaction((tx) => tx.events.appendMany([])), [])
    })

    it('enqueueMany of deliveries gives increasing ids in the order given, each delivery stored fresh', async () => {
      await storage().transaction(async (tx) => {
        for (const id of ['wh_one', 'wh_two']) {
          await tx.webhookEndpoints.insert(anEndpoint({ id, events: null }))
        }
      })
      const deliveries: NewWebhookDelivery[] = Array.from({ length: MANY }, (_, n) => ({
        endpointId: n % 2 === 0 ? 'wh_one' : 'wh_two',
        club: 'chess',
        eventId: 100 + n,
        payload: `{"n":${n},"é":"🏆"}`,
        nextAttemptAt: NOW + n,
        createdAt: NOW,
      }))
      const ids = await storage().transaction((tx) => tx.webhookDeliveries.enqueueMany(deliveries))
      assert.equal(ids.length, MANY)
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids[${i}]`)
      const fresh = { attempts: 0, leaseUntil: null, deliveredAt: null, givenUpAt: null, lastStatus: null, lastError: null }
      const stored = deliveries.map((delivery, i) => ({ ...delivery, id: ids[i]!, ...fresh }))
      assert.deepStrictEqual(await storage().webhookDeliveries.listByEndpoint('wh_one', MANY), stored.filter((d) => d.endpointId === 'wh_one').reverse())
      assert.deepStrictEqual(await storage().webhookDeliveries.listByEndpoint('wh_two', MANY), stored.filter((d) => d.endpointId === 'wh_two').reverse())
    })

    it('outbox.enqueueMany gives increasing ids in the order given, each message stored unsent and untried', async () => {
      const messages: NewOutboxMessage[] = Array.from({ length: MANY }, (_, n) => ({
        club: 'chess',
        issuanceId: 500 + (n % 3),
        to: `m${n}@example.org`,
        subject: `Your badge « ${n} » 🏆`,
        text: `Hello,\nbadge ${n}\n`,
        html: `<p>badge ${n}</p>`,
        nextAttemptAt: NOW + n,
        createdAt: NOW,
      }))
      const ids = await storage().transaction((tx) => tx.outbox.enqueueMany(messages))
      assert.equal(ids.length, MANY)
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids[${i}]`)
      // Claimed at the last one's time with a lease of 0: each message once, untried until then, oldest first.
      const claimed = await storage().transaction((tx) => tx.outbox.claimDue(NOW + MANY, 0, MANY + 1, 1))
      assert.deepStrictEqual(
        claimed,
        messages.map((message, i) => ({ ...message, id: ids[i]!, attempts: 1, nextAttemptAt: NOW + MANY, sentAt: null, lastError: null })),
      )
    })

    it('credentials.insertMany stores each credential, skips each that conflicts (also within the call) and names those stored', async () => {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), MANY + 2)
      const [taken, idTaken, ...rest] = ids
      const first = aCredential(taken!, 0)
      await storage().transaction((tx) => tx.credentials.insertMany([first]))
      const credentials = [
        aCredential(taken!, 1), // its issuance has a credential
        aCredential(idTaken!, 0), // its id exists
        ...rest.map((issuanceId, i) => aCredential(issuanceId, i + 2)),
        aCredential(rest[0]!, MANY + 10), // an issuance earlier in this call
        aCredential(idTaken!, 2), // an id earlier in this call
      ]
      const stored = await storage().transaction((tx) => tx.credentials.insertMany(credentials))
      assert.deepStrictEqual(
        [...stored].sort((a, b) => a - b),
        [...rest].sort((a, b) => a - b),
      )
      assert.deepStrictEqual(await storage().credentials.findByIssuance(taken!), first)
      assert.equal(await storage().credentials.findByIssuance(idTaken!), null)
      for (const [i, issuanceId] of rest.entries()) {
        assert.deepStrictEqual(await storage().credentials.findByIssuance(issuanceId), aCredential(issuanceId, i + 2))
      }
      assert.deepStrictEqual(await storage().transaction((tx) => tx.credentials.insertMany([])), [])
    })

    it('signingJobs.enqueueMany queues each job in issue order, and completeMany removes those named, ignoring the others', async () => {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), MANY)
      await storage().transaction((tx) => tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: 'chess' }))))
      assert.equal(await storage().signingJobs.count(), MANY)
      const claimed = await storage().transaction((tx) => tx.signingJobs.claim(NOW, 60_000, 5))
      assert.deepStrictEqual(
        claimed.map((job) => job.issuanceId),
        ids.slice(0, 5),
      )
      const done = ids.filter((_, i) => i % 7 !== 3)
      await storage().transaction((tx) => tx.signingJobs.completeMany([...done, 12_345]))
      assert.equal(await storage().signingJobs.count(), MANY - done.length)
      const left = await storage().transaction((tx) => tx.signingJobs.claim(NOW + 120_000, 60_000, MANY))
      assert.deepStrictEqual(
        left.map((job) => job.issuanceId),
        ids.filter((_, i) => i % 7 === 3),
      )
      await storage().transaction((tx) => tx.signingJobs.completeMany([]))
    })

    it('signingJobs.reserveStatusSlots sets the slot of each job named, ignoring ids without a job, and leaves the others', async () => {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), MANY)
      await storage().transaction((tx) => tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: 'chess' }))))
      const slotted = ids.filter((_, i) => i % 5 !== 2)
      await storage().transaction((tx) =>
        tx.signingJobs.reserveStatusSlots([
          ...slotted.map((issuanceId, i) => ({ issuanceId, statusListId: 1 + (i % 2), statusListIndex: 1000 + i })),
          { issuanceId: 12_345, statusListId: 9, statusListIndex: 9 },
        ]),
      )
      const claimed = await storage().transaction((tx) => tx.signingJobs.claim(NOW, 60_000, MANY))
      assert.equal(claimed.length, MANY)
      const slotOf = new Map(slotted.map((issuanceId, i) => [issuanceId, { statusListId: 1 + (i % 2), statusListIndex: 1000 + i }]))
      for (const job of claimed) {
        assert.deepStrictEqual(
          { statusListId: job.statusListId, statusListIndex: job.statusListIndex },
          slotOf.get(job.issuanceId) ?? { statusListId: null, statusListIndex: null },
          `job ${job.issuanceId}`,
        )
      }
      assert.equal(await storage().signingJobs.count(), MANY)
    })

    it('signingJobs.enqueueMany throws StorageConflict when an issuance has a job, writing none of them', async () => {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), 5)
      await storage().transaction((tx) => tx.signingJobs.enqueueMany([{ issuanceId: ids[4]!, club: 'chess' }]))
      await assert.rejects(
        storage().transaction((tx) => tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: 'chess' })))),
        StorageConflict,
      )
      assert.equal(await storage().signingJobs.count(), 1)
    })
  })
}
