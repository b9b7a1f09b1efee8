import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import type { SigningJob } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'
import { anIssuance, seedIssuances, seedTemplate } from './issuances.cases.ts'

const NOW = 1_900_000_000_000
const LEASE = 60_000

function aJob(overrides: Partial<SigningJob> & { issuanceId: number }): SigningJob {
  return { club: 'chess', statusListId: null, statusListIndex: null, attempts: 1, leaseUntil: NOW + LEASE, lastError: null, ...overrides }
}

/** SigningJobStore: core/ports/storage.ts. */
export function signingJobCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('signing jobs', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** A club, a template and `count` issuances, each with an enqueued job unless `enqueue` is false. */
    async function jobs(count: number, { enqueue = true } = {}): Promise<number[]> {
      const ids = await seedIssuances(storage(), await seedTemplate(storage()), count)
      if (enqueue) {
        await storage().transaction((tx) => tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: 'chess' }))))
      }
      return ids
    }
    const claim = (now: number, limit = 10, leaseMs = LEASE) => storage().transaction((tx) => tx.signingJobs.claim(now, leaseMs, limit))

    it('a claimed job comes back fresh: leased until now + leaseMs, one attempt, no slot, no error, as a plain object', async () => {
      const [issuanceId] = await jobs(1)
      const claimed = await claim(NOW)
      assert.deepStrictEqual(claimed, [aJob({ issuanceId: issuanceId! })])
      assert.equal(Object.getPrototypeOf(claimed[0]), Object.prototype)
    })

    it('count is 0 without jobs and counts every enqueued job, leased or not', async () => {
      assert.equal(await storage().signingJobs.count(), 0)
      await jobs(3)
      assert.equal(await storage().signingJobs.count(), 3)
      await claim(NOW, 2)
      assert.equal(await storage().signingJobs.count(), 3)
    })

    it('countBacklog is empty without jobs, then counts every job and names the oldest issuance, leased or not', async () => {
      assert.deepStrictEqual(await storage().signingJobs.countBacklog(), { depth: 0, oldestCreatedAt: null })
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => {
        const inserted = []
        // Created out of sequence order: the oldest by time is the second inserted.
        for (const createdAt of [NOW + 20, NOW + 10, NOW + 30]) inserted.push((await tx.issuances.insert(anIssuance(seed, { createdAt }))).id)
        await tx.signingJobs.enqueueMany(inserted.map((issuanceId) => ({ issuanceId, club: 'chess' })))
        return inserted
      })
      assert.deepStrictEqual(await storage().signingJobs.countBacklog(), { depth: 3, oldestCreatedAt: NOW + 10 })
      await claim(NOW, 3)
      assert.deepStrictEqual(await storage().signingJobs.countBacklog(), { depth: 3, oldestCreatedAt: NOW + 10 })
      await storage().transaction((tx) => tx.signingJobs.complete(ids[1]!))
      assert.deepStrictEqual(await storage().signingJobs.countBacklog(), { depth: 2, oldestCreatedAt: NOW + 20 })
    })

    it('ping answers that every migration is applied', async () => {
      assert.deepStrictEqual(await storage().ping(), { migrated: true })
    })

    it('claim with no jobs returns []', async () => {
      assert.deepStrictEqual(await claim(NOW), [])
    })

    it('claim leases the oldest issuances first (lowest sequence, whatever the random ids), at most limit', async () => {
      const ids = await jobs(5, { enqueue: false })
      await storage().transaction((tx) => tx.signingJobs.enqueueMany([3, 0, 4, 1, 2].map((i) => ({ issuanceId: ids[i]!, club: 'chess' }))))
      assert.deepStrictEqual(
        (await claim(NOW, 2)).map((job) => job.issuanceId),
        [ids[0], ids[1]],
      )
      assert.deepStrictEqual(
        (await claim(NOW, 2)).map((job) => job.issuanceId),
        [ids[2], ids[3]],
      )
      assert.deepStrictEqual(
        (await claim(NOW, 2)).map((job) => job.issuanceId),
        [ids[4]],
      )
      assert.deepStrictEqual(await claim(NOW, 2), [])
    })

    it('a leased job is not claimed again until its lease has ended, then it is, with attempts incremented', async () => {
      const [issuanceId] = await jobs(1)
      await claim(NOW)
      assert.deepStrictEqual(await claim(NOW), [])
      assert.deepStrictEqual(await claim(NOW + LEASE - 1), [])
      assert.deepStrictEqual(await claim(NOW + LEASE), [], 'the lease still holds at leaseUntil itself')
      const again = await claim(NOW + LEASE + 1, 10, 1000)
      assert.deepStrictEqual(again, [aJob({ issuanceId: issuanceId!, attempts: 2, leaseUntil: NOW + LEASE + 1 + 1000 })])
      assert.deepStrictEqual(await claim(NOW + LEASE + 1000), [])
    })

    it('claim takes the lowest sequences among never-leased and lease-ended jobs together', async () => {
      const ids = await jobs(5, { enqueue: false })
      const enqueue = (i: number) => storage().transaction((tx) => tx.signingJobs.enqueueMany([{ issuanceId: ids[i]!, club: 'chess' }]))
      // Leased, and their leases end before `later`: 1 and 2. Never leased: 0 (lower than both), 3 and 4.
      await enqueue(1)
      await enqueue(2)
      assert.deepStrictEqual(
        (await claim(NOW, 2)).map((job) => job.issuanceId),
        [ids[1], ids[2]],
      )
      for (const i of [0, 3, 4]) await enqueue(i)
      const later = NOW + LEASE + 1
      assert.deepStrictEqual(
        (await claim(later, 2)).map((job) => job.issuanceId),
        [ids[0], ids[1]],
        'a fresh job of lower sequence before an ended lease',
      )
      assert.deepStrictEqual(
        (await claim(later, 2)).map((job) => job.issuanceId),
        [ids[2], ids[3]],
        'an ended lease before a fresh job of higher sequence',
      )
      assert.deepStrictEqual(
        (await claim(later, 2)).map((job) => job.issuanceId),
        [ids[4]],
      )
    })

    it('enqueueing a second job for an issuance throws StorageConflict and keeps one job', async () => {
      const [issuanceId] = await jobs(1)
      await assert.rejects(
        storage().transaction((tx) => tx.signingJobs.enqueueMany([{ issuanceId: issuanceId!, club: 'chess' }])),
        (error) => error instanceof StorageConflict,
      )
      assert.equal(await storage().signingJobs.count(), 1)
      assert.deepStrictEqual(await claim(NOW), [aJob({ issuanceId: issuanceId! })])
    })

    it('reserveStatusSlots records the slot on the job, and it is kept across a release', async () => {
      const [issuanceId, other] = await jobs(2)
      await storage().transaction((tx) => tx.signingJobs.reserveStatusSlots([{ issuanceId: issuanceId!, statusListId: 3, statusListIndex: 117_000 }]))
      const claimed = await claim(NOW)
      assert.deepStrictEqual(claimed, [aJob({ issuanceId: issuanceId!, statusListId: 3, statusListIndex: 117_000 }), aJob({ issuanceId: other! })])
      await storage().transaction((tx) => tx.signingJobs.release(issuanceId!, 'signer offline', NOW + 10))
      assert.deepStrictEqual(await claim(NOW + 10), [
        aJob({ issuanceId: issuanceId!, statusListId: 3, statusListIndex: 117_000, attempts: 2, leaseUntil: NOW + 10 + LEASE, lastError: 'signer offline' }),
      ])
    })

    it('release records the error and makes the job claimable from retryAt on, not before', async () => {
      const [issuanceId] = await jobs(1)
      await claim(NOW)
      const retryAt = NOW + 5_000
      await storage().transaction((tx) => tx.signingJobs.release(issuanceId!, 'HSM timeout', retryAt))
      assert.deepStrictEqual(await claim(retryAt - 1), [])
      assert.deepStrictEqual(await claim(retryAt, 10, 1000), [
        aJob({ issuanceId: issuanceId!, attempts: 2, leaseUntil: retryAt + 1000, lastError: 'HSM timeout' }),
      ])
    })

    it('release frees a lease early: the job is claimable at retryAt although its lease ran longer', async () => {
      const [issuanceId] = await jobs(1)
      await claim(NOW, 10, 10 * LEASE)
      await storage().transaction((tx) => tx.signingJobs.release(issuanceId!, 'failed', NOW + 1))
      assert.deepStrictEqual(
        (await claim(NOW + 1)).map((job) => job.issuanceId),
        [issuanceId],
      )
    })

    it('complete removes the job: it is neither counted nor claimed again', async () => {
      const [a, b] = await jobs(2)
      await claim(NOW)
      await storage().transaction((tx) => tx.signingJobs.complete(a!))
      assert.equal(await storage().signingJobs.count(), 1)
      assert.deepStrictEqual(
        (await claim(NOW + 10 * LEASE)).map((job) => job.issuanceId),
        [b],
      )
      await storage().transaction((tx) => tx.signingJobs.complete(a!)) // completing twice is harmless
      assert.equal(await storage().signingJobs.count(), 1)
    })

    it('a job can be enqueued again for an issuance whose job was completed', async () => {
      const [issuanceId] = await jobs(1)
      await storage().transaction((tx) => tx.signingJobs.complete(issuanceId!))
      await storage().transaction((tx) => tx.signingJobs.enqueueMany([{ issuanceId: issuanceId!, club: 'chess' }]))
      assert.deepStrictEqual(await claim(NOW), [aJob({ issuanceId: issuanceId! })])
    })

    it('of 10 concurrent units claiming up to 5 of 30 jobs, no job is returned twice and every job once', async () => {
      const ids = await jobs(30)
      const claims = await Promise.all(
        Array.from({ length: 10 }, () =>
          storage().transaction(async (tx) => {
            const claimed = await tx.signingJobs.claim(NOW, LEASE, 5)
            await turns(1)
            return claimed
          }),
        ),
      )
      const claimed = claims.flat().map((job) => job.issuanceId)
      assert.equal(new Set(claimed).size, claimed.length, `claimed twice: ${claimed.join(', ')}`)
      assert.deepStrictEqual(
        [...claimed].sort((x, y) => x - y),
        [...ids].sort((x, y) => x - y),
      )
      assert.ok(claims.every((batch) => batch.length <= 5))
      assert.ok(claims.flat().every((job) => job.attempts === 1))
    })

    it('a claim, a reservation and a release in a rolled-back unit are undone', async () => {
      const [issuanceId] = await jobs(1)
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.equal((await tx.signingJobs.claim(NOW, LEASE, 10)).length, 1)
          await tx.signingJobs.reserveStatusSlots([{ issuanceId: issuanceId!, statusListId: 1, statusListIndex: 2 }])
          await tx.signingJobs.release(issuanceId!, 'boom', NOW + 10 * LEASE)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await claim(NOW), [aJob({ issuanceId: issuanceId! })])
    })

    it('a job completed in a rolled-back unit is still there', async () => {
      const [issuanceId] = await jobs(1)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.signingJobs.complete(issuanceId!)
          assert.equal(await tx.signingJobs.count(), 0)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal(await storage().signingJobs.count(), 1)
      assert.deepStrictEqual(await claim(NOW), [aJob({ issuanceId: issuanceId! })])
    })
  })
}
