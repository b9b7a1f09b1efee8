import type { Database } from './database.ts'
import type { CredentialRecord } from '../../core/credentials/credential-record.ts'
import type { CredentialStore } from '../../core/ports/storage.ts'
import { proofColumn, toCredential } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

/**
 * A credential's row is keyed by its issuance's sequence (migration 0012): the key is the one credential
 * per issuance, and rounds, which claim in sequence order, append. The sequence comes from the issuance's
 * id; an id that names no issuance finds none, and the foreign key on `issuance_id` refuses the row.
 * DO NOTHING: a credential that would conflict (a job signed twice) is skipped, the others go in. Its
 * parameters are `credentialValues`.
 */
const INSERT_CREDENTIAL = `INSERT INTO credentials (issuance_seq, id, issuance_id, club, jwt, issued_at, valid_until, status_list_id, status_list_index, proof)
  VALUES ((SELECT seq FROM issuances WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
const credentialValues = (c: CredentialRecord) =>
  [c.issuanceId, c.id, c.issuanceId, c.club, c.jwt, c.issuedAt, c.validUntil, c.statusListId, c.statusListIndex, proofColumn(c.proof)] as const

/**
 * Leases the `limit` oldest credentials whose proof is still to be made and whose proof lease has ended,
 * in one statement: the rows it leases are exactly the rows it returns (RETURNING has no order; the
 * caller sorts). It walks `credentials_unproven`, which holds only the credentials still to be proved.
 * Parameters: lease end, now, limit.
 */
const CLAIM_UNPROVEN = `UPDATE credentials SET proof_lease_until = ?, proof_attempts = proof_attempts + 1
  WHERE issuance_seq IN (
    SELECT issuance_seq FROM credentials INDEXED BY credentials_unproven
    WHERE proof IS NULL AND (proof_lease_until IS NULL OR proof_lease_until < ?) ORDER BY issuance_seq LIMIT ?)
  RETURNING *`

/** The credentials of the issuances whose ids are the JSON array given (each once): each id to its sequence, then to its row. */
export const CREDENTIALS_BY_ISSUANCE_IDS = `SELECT * FROM credentials
  WHERE issuance_seq IN (SELECT seq FROM issuances WHERE id IN (SELECT value FROM json_each(?)))`

export function createCredentialStore(db: Database): CredentialStore {
  return {
    async insertMany(credentials) {
      // A row at a time, not one multi-row statement: with rows this large (the JWT, about 4 KB) that
      // measured no cheaper (docs/benchmarks/history.md § Multi-row writes). DO NOTHING: a credential
      // that would conflict (a job signed twice) is skipped, the others go in.
      const stored: number[] = []
      for (const c of credentials) {
        if (db.run(INSERT_CREDENTIAL, ...credentialValues(c)) === 1) stored.push(c.issuanceId)
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
    async claimUnproven(now, leaseMs, limit) {
      return db
        .all(CLAIM_UNPROVEN, now + leaseMs, now, limit)
        .sort((a, b) => num(a.issuance_seq) - num(b.issuance_seq))
        .map((row) => ({ credential: toCredential(row), attempts: num(row.proof_attempts) }))
    },
    async releaseUnproven(ids, error, retryAt) {
      // A lease that ends at `retryAt - 1` makes the credential claimable from `retryAt` on.
      for (const id of ids) db.run('UPDATE credentials SET proof_lease_until = ?, proof_error = ? WHERE id = ? AND proof IS NULL', retryAt - 1, error, id)
    },
    async storeProofs(proofs) {
      let stored = 0
      for (const { id, proof } of proofs) stored += db.run('UPDATE credentials SET proof = ? WHERE id = ? AND proof IS NULL', proofColumn(proof), id)
      return stored
    },
  }
}
