import { chunksOf, insertedOrConflict, nullableNum, nullableStr, num, str, type Database, type Row } from './database.ts'
import type { CredentialRecord } from '../../core/issuances/issuance.ts'
import type { CredentialStore, SigningJob, SigningJobStore } from '../../core/ports/storage.ts'

const toCredential = (row: Row): CredentialRecord => ({
  id: str(row.id),
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  jwt: str(row.jwt),
  issuedAt: num(row.issued_at),
  validUntil: nullableNum(row.valid_until),
  statusListId: num(row.status_list_id),
  statusListIndex: num(row.status_list_index),
})

export function createCredentialStore({ sql }: Database): CredentialStore {
  return {
    async insert(credential) {
      // A second credential for an issuance (a job signed twice after its lease ran out) is refused
      // without aborting the unit: storeSigned goes on with the other credentials of its batch.
      insertedOrConflict(
        await sql`INSERT INTO credentials (id, issuance_id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
          VALUES (${credential.id}, ${credential.issuanceId}, ${credential.club}, ${credential.jwt}, ${credential.issuedAt},
            ${credential.validUntil}, ${credential.statusListId}, ${credential.statusListIndex})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'credential',
      )
    },
    async insertMany(credentials) {
      // DO NOTHING, as `insert`: a credential that would conflict is skipped and the unit stays usable.
      const stored: number[] = []
      for (const chunk of chunksOf(credentials)) {
        const rows = chunk.map((c) => ({
          id: c.id,
          issuance_id: c.issuanceId,
          club: c.club,
          jwt: c.jwt,
          issued_at: c.issuedAt,
          valid_until: c.validUntil,
          status_list_id: c.statusListId,
          status_list_index: c.statusListIndex,
        }))
        const inserted = await sql`INSERT INTO credentials
          ${sql(rows, 'id', 'issuance_id', 'club', 'jwt', 'issued_at', 'valid_until', 'status_list_id', 'status_list_index')}
          ON CONFLICT DO NOTHING RETURNING issuance_id`
        for (const row of inserted) stored.push(num(row.issuance_id))
      }
      return stored
    },
    async findById(id) {
      const [row] = await sql`SELECT * FROM credentials WHERE id = ${id}`
      return row ? toCredential(row) : null
    },
    async findByIssuance(issuanceId) {
      const [row] = await sql`SELECT * FROM credentials WHERE issuance_id = ${issuanceId}`
      return row ? toCredential(row) : null
    },
    async findByIssuances(issuanceIds) {
      if (issuanceIds.length === 0) return []
      return (await sql`SELECT * FROM credentials WHERE issuance_id = ANY(${issuanceIds}::int8[])`).map(toCredential)
    },
    async listRevokedIndexes(statusListId) {
      const rows = await sql`SELECT c.status_list_index AS i FROM credentials c JOIN issuances s ON s.id = c.issuance_id
        WHERE c.status_list_id = ${statusListId} AND s.revoked_at IS NOT NULL`
      return rows.map((row) => num(row.i))
    },
  }
}

const toJob = (row: Row): SigningJob => ({
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  statusListId: nullableNum(row.status_list_id),
  statusListIndex: nullableNum(row.status_list_index),
  attempts: num(row.attempts),
  leaseUntil: nullableNum(row.lease_until),
  lastError: nullableStr(row.last_error),
})

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
    async enqueue({ issuanceId, club }) {
      // The issuance's sequence is copied so that claims walk one index in issue order.
      await sql`INSERT INTO signing_jobs (issuance_id, club, issuance_seq)
        VALUES (${issuanceId}, ${club}, (SELECT seq FROM issuances WHERE id = ${issuanceId}))`
      await announceSigningJobs(sql)
    },
    async enqueueMany(jobs) {
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
      return [...rows].sort((a, b) => num(a.issuance_seq) - num(b.issuance_seq)).map(toJob)
    },
    async reserveStatusSlot(issuanceId, statusListId, statusListIndex) {
      await sql`UPDATE signing_jobs SET status_list_id = ${statusListId}, status_list_index = ${statusListIndex} WHERE issuance_id = ${issuanceId}`
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
