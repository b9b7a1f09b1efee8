import { nullableNum, nullableStr, num, rowsAtOnce, str, type Database } from './database.ts'
import type { CredentialRecord } from '../../core/issuances/issuance.ts'
import type { CredentialStore, SigningJob, SigningJobStore } from '../../core/ports/storage.ts'
import type { SqliteRow } from './driver.ts'

const toCredential = (row: SqliteRow): CredentialRecord => ({
  id: str(row.id),
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  jwt: str(row.jwt),
  issuedAt: num(row.issued_at),
  validUntil: nullableNum(row.valid_until),
  statusListId: num(row.status_list_id),
  statusListIndex: num(row.status_list_index),
})

/**
 * A credential's row is keyed by its issuance's sequence (migration 0012): the key is the one credential
 * per issuance, and rounds, which claim in sequence order, append. The sequence comes from the issuance's
 * id; an id that names no issuance finds none, and the foreign key on `issuance_id` refuses the row.
 * Its parameters are `credentialValues`.
 */
const INSERT_CREDENTIAL = `INSERT INTO credentials (issuance_seq, id, issuance_id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
  VALUES ((SELECT seq FROM issuances WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?)`
const credentialValues = (c: CredentialRecord) =>
  [c.issuanceId, c.id, c.issuanceId, c.club, c.jwt, c.issuedAt, c.validUntil, c.statusListId, c.statusListIndex] as const

/** The credentials of the issuances whose ids are the JSON array given (each once): each id to its sequence, then to its row. */
export const CREDENTIALS_BY_ISSUANCE_IDS = `SELECT * FROM credentials
  WHERE issuance_seq IN (SELECT seq FROM issuances WHERE id IN (SELECT value FROM json_each(?)))`

export function createCredentialStore(db: Database): CredentialStore {
  return {
    async insert(credential) {
      db.run(INSERT_CREDENTIAL, ...credentialValues(credential))
    },
    async insertMany(credentials) {
      // A row at a time, not one multi-row statement: with rows this large (the JWT, about 4 KB) that
      // measured no cheaper (docs/benchmarks.md, Issuing throughput (issue 19)). DO NOTHING: a credential
      // that would conflict (a job signed twice) is skipped, the others go in.
      const stored: number[] = []
      for (const c of credentials) {
        if (db.run(`${INSERT_CREDENTIAL} ON CONFLICT DO NOTHING`, ...credentialValues(c)) === 1) stored.push(c.issuanceId)
      }
      return stored
    },
    async findById(id) {
      const row = db.get('SELECT * FROM credentials WHERE id = ?', id)
      return row ? toCredential(row) : null
    },
    async findByIssuance(issuanceId) {
      const row = db.get('SELECT * FROM credentials WHERE issuance_seq = (SELECT seq FROM issuances WHERE id = ?)', issuanceId)
      return row ? toCredential(row) : null
    },
    async findByIssuances(issuanceIds) {
      if (issuanceIds.length === 0) return []
      return db.all(CREDENTIALS_BY_ISSUANCE_IDS, JSON.stringify(issuanceIds)).map(toCredential)
    },
    async listRevokedIndexes(statusListId) {
      return db
        .all(
          `SELECT c.status_list_index AS i FROM credentials c JOIN issuances s ON s.seq = c.issuance_seq
           WHERE c.status_list_id = ? AND s.revoked_at IS NOT NULL`,
          statusListId,
        )
        .map((row) => num(row.i))
    },
  }
}

const toJob = (row: SqliteRow): SigningJob => ({
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  statusListId: nullableNum(row.status_list_id),
  statusListIndex: nullableNum(row.status_list_index),
  attempts: num(row.attempts),
  leaseUntil: nullableNum(row.lease_until),
  lastError: nullableStr(row.last_error),
})

/**
 * Leases the `limit` claimable jobs of lowest issuance sequence, in one statement: the rows it leases are
 * exactly the rows it returns (RETURNING has no order; the caller sorts). Never leased (`lease_until IS
 * NULL`) and lease ended (`< now`) are two ranges of `signing_jobs_by_lease`, each read in sequence
 * order up to `limit`, then merged: as one `IS NULL OR <` condition SQLite sorted every claimable job
 * at every claim (issue 19: `npm run -s bench:round`, test/adapters/sqlite-query-plans.test.ts). The
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
  // The sequence looked up by one subquery over a VALUES list: a subquery in each VALUES row measured slower than a row at a time.
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
    async enqueue({ issuanceId, club }) {
      // The issuance's sequence is copied so that claims walk one index in issue order.
      db.run('INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, ?, (SELECT seq FROM issuances WHERE id = ?))', issuanceId, club, issuanceId)
    },
    async enqueueMany(jobs) {
      enqueueMany.run(jobs, ({ issuanceId, club }) => [issuanceId, club])
    },
    async claim(now, leaseMs, limit) {
      return db
        .all(CLAIM_JOBS, now + leaseMs, limit, now, limit, limit)
        .sort((a, b) => num(a.issuance_seq) - num(b.issuance_seq))
        .map(toJob)
    },
    async reserveStatusSlot(issuanceId, statusListId, statusListIndex) {
      db.run('UPDATE signing_jobs SET status_list_id = ?, status_list_index = ? WHERE issuance_id = ?', statusListId, statusListIndex, issuanceId)
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
