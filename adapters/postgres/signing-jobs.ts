import { chunksOf, type Database } from './database.ts'
import type { SigningJobStore } from '../../core/ports/storage.ts'
import { toSigningJob } from '../shared/rows.ts'
import { nullableNum, num } from '../shared/sql-values.ts'

/** The channel on which queued signing jobs are announced; the payload is the schema (storage.ts listens). */
export const SIGNING_JOBS_CHANNEL = 'clubcred_signing_jobs'

/**
 * Announces jobs to the workers listening: delivered when the unit commits (never for one that rolls
 * back), once per unit however often it is called.
 */
const announceSigningJobs = async (sql: Database['sql']) => {
  await sql`SELECT pg_notify(${SIGNING_JOBS_CHANNEL}, current_schema())`
}

export function createSigningJobStore({ sql }: Database): SigningJobStore {
  return {
    async enqueueMany(jobs) {
      // The issuance's sequence is copied so that claims walk one index in issue order.
      for (const chunk of chunksOf(jobs)) {
        await sql`INSERT INTO signing_jobs (issuance_id, club, issuance_seq)
          SELECT j.issuance_id, j.club, (SELECT seq FROM issuances WHERE id = j.issuance_id)
          FROM unnest(${chunk.map((job) => job.issuanceId)}::int8[], ${chunk.map((job) => job.club)}::text[]) AS j(issuance_id, club)`
      }
      if (jobs.length > 0) await announceSigningJobs(sql)
    },
    async claim(now, leaseMs, limit) {
      // SKIP LOCKED: workers claiming at once (concurrent units, see storage.ts) pass over the rows
      // another claim holds instead of waiting for it, and none returns a job another one leased.
      // `= ANY(ARRAY(…))` makes the chosen ids one value the update finds by primary key: with `IN (…)`
      // the planner may join them to a scan of the whole queue (it did before statistics).
      const rows = await sql`UPDATE signing_jobs SET lease_until = ${now + leaseMs}, attempts = attempts + 1
        WHERE issuance_id = ANY(ARRAY(
          SELECT issuance_id FROM signing_jobs WHERE lease_until IS NULL OR lease_until < ${now}
          ORDER BY issuance_seq LIMIT ${limit} FOR UPDATE SKIP LOCKED))
        RETURNING *`
      return [...rows].sort((a, b) => num(a.issuance_seq) - num(b.issuance_seq)).map(toSigningJob)
    },
    async reserveStatusSlots(slots) {
      for (const chunk of chunksOf(slots)) {
        await sql`UPDATE signing_jobs SET status_list_id = v.list_id, status_list_index = v.list_index
          FROM unnest(${chunk.map((slot) => slot.issuanceId)}::int8[], ${chunk.map((slot) => slot.statusListId)}::int8[],
            ${chunk.map((slot) => slot.statusListIndex)}::int8[]) AS v(issuance_id, list_id, list_index)
          WHERE signing_jobs.issuance_id = v.issuance_id`
      }
    },
    async release(issuanceId, error, retryAt) {
      // A lease that ends at `retryAt - 1` makes the job claimable from `retryAt` on.
      await sql`UPDATE signing_jobs SET lease_until = ${retryAt - 1}, last_error = ${error} WHERE issuance_id = ${issuanceId}`
    },
    async complete(issuanceId) {
      await sql`DELETE FROM signing_jobs WHERE issuance_id = ${issuanceId}`
    },
    async completeMany(issuanceIds) {
      if (issuanceIds.length === 0) return
      await sql`DELETE FROM signing_jobs WHERE issuance_id = ANY(${issuanceIds}::int8[])`
    },
    async count() {
      const [row] = await sql`SELECT count(*) AS n FROM signing_jobs`
      return num(row!.n)
    },
    async countBacklog() {
      const [row] = await sql`SELECT count(*) AS n, min(i.created_at) AS oldest FROM signing_jobs j LEFT JOIN issuances i ON i.id = j.issuance_id`
      return { depth: num(row!.n), oldestCreatedAt: nullableNum(row!.oldest) }
    },
  }
}
