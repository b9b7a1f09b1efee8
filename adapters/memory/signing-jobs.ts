import { StorageConflict } from '../../core/errors.ts'
import type { SigningJob, SigningJobStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

/** A job as it is queued: no slot, no attempt, no lease (the enqueue and a reissue's queueSigning). */
export function queuedSigningJob(issuanceId: number, club: string): SigningJob {
  return { issuanceId, club, statusListId: null, statusListIndex: null, attempts: 0, leaseUntil: null, lastError: null }
}

export function createSigningJobStore(state: State, journal: Journal): SigningJobStore {
  const enqueue = ({ issuanceId, club }: { issuanceId: number; club: string }) => {
    put(journal, state.signingJobs, issuanceId, queuedSigningJob(issuanceId, club))
  }
  return {
    async enqueueMany(jobs) {
      // Checked before any is written: a conflict writes none, as one SQL statement would.
      const ids = new Set<number>()
      for (const { issuanceId } of jobs) {
        if (state.signingJobs.has(issuanceId) || ids.has(issuanceId)) throw new StorageConflict(`issuance ${issuanceId} has a signing job`)
        ids.add(issuanceId)
      }
      jobs.forEach(enqueue)
    },
    async claim(now, leaseMs, limit) {
      // `leaseUntil` is the last instant the lease holds: the job is free once it is before `now`.
      const sequenceOf = (job: SigningJob) => state.issuances.get(job.issuanceId)?.sequence ?? 0
      const free = [...state.signingJobs.values()]
        .filter((job) => job.leaseUntil === null || job.leaseUntil < now)
        .sort((a, b) => sequenceOf(a) - sequenceOf(b))
        .slice(0, limit)
      return free.map((job) => {
        const leased = { ...job, leaseUntil: now + leaseMs, attempts: job.attempts + 1 }
        put(journal, state.signingJobs, job.issuanceId, leased)
        return copy(leased)
      })
    },
    async reserveStatusSlots(slots) {
      for (const { issuanceId, statusListId, statusListIndex } of slots) {
        const job = state.signingJobs.get(issuanceId)
        if (job) put(journal, state.signingJobs, issuanceId, { ...job, statusListId, statusListIndex })
      }
    },
    async release(issuanceId, error, retryAt) {
      const job = state.signingJobs.get(issuanceId)
      // A lease that ends at `retryAt - 1` makes the job claimable from `retryAt` on.
      if (job) put(journal, state.signingJobs, issuanceId, { ...job, leaseUntil: retryAt - 1, lastError: error })
    },
    async complete(issuanceId) {
      remove(journal, state.signingJobs, issuanceId)
    },
    async completeMany(issuanceIds) {
      for (const issuanceId of issuanceIds) remove(journal, state.signingJobs, issuanceId)
    },
    async count() {
      return state.signingJobs.size
    },
    async countBacklog() {
      let oldestCreatedAt: number | null = null
      for (const job of state.signingJobs.values()) {
        const createdAt = state.issuances.get(job.issuanceId)?.createdAt
        if (createdAt !== undefined && (oldestCreatedAt === null || createdAt < oldestCreatedAt)) oldestCreatedAt = createdAt
      }
      return { depth: state.signingJobs.size, oldestCreatedAt }
    },
  }
}
