import { rowsAtOnce, type Database } from './database.ts'
import type { SigningJobStore } from '../../core/ports/storage.ts'
import { toSigningJob } from '../shared/rows.ts'
import { nullableNum, num } from '../shared/sql-values.ts'

/**
 * Leases the `limit` claimable jobs of lowest issuance sequence, in one statement: the rows it leases are
 * exactly the rows it returns (RETURNING has no order; the caller sorts). Never leased (`lease_until IS
 * NULL`) and lease ended (`< now`) are two ranges of `signing_jobs_by_lease`, each read in sequence
 * order up to `limit`, then merged: as one `IS NULL OR <` condition SQLite sorted every claimable job
 * at every claim (`npm run -s bench:round`, test/adapters/sqlite-query-plans.test.ts). The
 * fresh range orders by `lease_until, issuance_seq`, the index's own order, which SQLite then reads
 * without sorting; by `issuance_seq` alone it sorted the whole range. The ended range names its index:
 * left to itself SQLite walks the table in sequence order (its key since migration 0010) looking for
 * ended leases, which are rare, so it would read the whole queue to find none. Parameters: lease end,
 * limit, now, limit, limit.
 */
export const CLAIM_JOBS = `UPDATE signing_jobs SET lease_until = ?, attempts = attempts + 1
  WHERE issuance_seq IN (
    SELECT issuance_seq FROM (
      SELECT issuance_seq FROM (
        SELECT issuance_seq FROM signing_jobs WHERE lease_until IS NULL ORDER BY lease_until, issuance_seq LIMIT ?)
      UNION ALL
      SELECT issuance_seq FROM (
        SELECT issuance_seq FROM signing_jobs INDEXED BY signing_jobs_by_lease WHERE lease_until < ? ORDER BY issuance_seq LIMIT ?)
      ORDER BY issuance_seq LIMIT ?))
  RETURNING *`

export function createSigningJobStore(db: Database): SigningJobStore {
  // The issuance's sequence is copied so that claims walk one index in issue order; looked up by one
  // subquery over a VALUES list: a subquery in each VALUES row measured slower than a row at a time.
  const enqueueMany = rowsAtOnce(
    db,
    `INSERT INTO signing_jobs (issuance_id, club, issuance_seq)
     SELECT v.column1, v.column2, (SELECT seq FROM issuances WHERE id = v.column1) FROM (VALUES`,
    '(?, ?)',
    ') AS v',
  )
  const reserveMany = rowsAtOnce(
    db,
    `UPDATE signing_jobs SET status_list_id = v.column2, status_list_index = v.column3
     FROM (VALUES`,
    '(?, ?, ?)',
    ') AS v WHERE signing_jobs.issuance_id = v.column1',
  )
  const completeMany = rowsAtOnce(db, 'DELETE FROM signing_jobs WHERE issuance_id IN (', '?', ')')
  return {
    async enqueueMany(jobs) {
      enqueueMany.run(jobs, ({ issuanceId, club }) => [issuanceId, club])
    },
    async claim(now, leaseMs, limit) {
      return db
        .all(CLAIM_JOBS, now + leaseMs, limit, now, limit, limit)
        .sort((a, b) => num(a.issuance_seq) - num(b.issuance_seq))
        .map(toSigningJob)
    },
    async reserveStatusSlots(slots) {
      reserveMany.run(slots, (slot) => [slot.issuanceId, slot.statusListId, slot.statusListIndex])
    },
    async release(issuanceId, error, retryAt) {
      // A lease that ends at `retryAt - 1` makes the job claimable from `retryAt` on.
      db.run('UPDATE signing_jobs SET lease_until = ?, last_error = ? WHERE issuance_id = ?', retryAt - 1, error, issuanceId)
    },
    async complete(issuanceId) {
      db.run('DELETE FROM signing_jobs WHERE issuance_id = ?', issuanceId)
    },
    async completeMany(issuanceIds) {
      completeMany.run(issuanceIds, (id) => [id])
    },
    async count() {
      return num(db.get('SELECT count(*) AS n FROM signing_jobs')?.n)
    },
    async countBacklog() {
      const row = db.get('SELECT count(*) AS n, min(i.created_at) AS oldest FROM signing_jobs j LEFT JOIN issuances i ON i.id = j.issuance_id')
      return { depth: num(row?.n), oldestCreatedAt: nullableNum(row?.oldest) }
    },
  }
}
