import type { SigningJob } from './signing-job.ts'

export interface SigningJobStore {
  /** Queues a fresh job (no lease, no slot, no attempt) per issuance. MUST throw `StorageConflict`, storing none, when an issuance has a job already. */
  enqueueMany(jobs: { issuanceId: number; club: string }[]): Promise<void>
  /**
   * Leases up to `limit` jobs that are free or whose lease ended before `now`, lowest issuance sequence
   * (oldest issuance) first:
   * sets `leaseUntil = now + leaseMs` and increments `attempts`. Inside a unit of work, concurrent claims
   * MUST NOT return the same job.
   */
  claim(now: number, leaseMs: number, limit: number): Promise<SigningJob[]>
  /** Records on each job the status-list slot reserved for its credential; jobs that do not exist are ignored. */
  reserveStatusSlots(slots: { issuanceId: number; statusListId: number; statusListIndex: number }[]): Promise<void>
  /** Frees a job's lease after a failure, recording the error; it is retried at `retryAt`. */
  release(issuanceId: number, error: string, retryAt: number): Promise<void>
  /** Removes the job (its credential is stored). */
  complete(issuanceId: number): Promise<void>
  /** `complete` of each of these jobs, in one go; ids without a job are ignored. */
  completeMany(issuanceIds: number[]): Promise<void>
  /** Number of jobs not yet completed. */
  count(): Promise<number>
  /**
   * The queue at a glance, for readiness and metrics: `depth`, the jobs not yet completed (as `count`),
   * and `oldestCreatedAt`, the `createdAt` of the oldest issuance among them (ms), `null` when there is
   * none. A read: it MUST NOT wait for a lease or change any job.
   */
  countBacklog(): Promise<SigningBacklog>
}

export interface SigningBacklog {
  depth: number
  oldestCreatedAt: number | null
}
