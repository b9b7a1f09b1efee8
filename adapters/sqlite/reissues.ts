import type { Database } from './database.ts'
import type { ReissueStore } from '../../core/ports/storage.ts'
import { toCredentialVersion, toReissue } from '../shared/reissue-rows.ts'
import { num, str } from '../shared/sql-values.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'

export function createReissueStore(db: Database): ReissueStore {
  return {
    async amend(club, issuanceId, a) {
      const changed = db.run(
        `UPDATE issuances SET external_user_id = ?, recipient_name = ?, recipient_email = ?, evidences = ?, expires_at = ?,
           valid_until = ?, snapshot_id = ?, mode = ?
         WHERE club = ? AND id = ? AND revoked_at IS NULL`,
        a.recipient.externalUserId,
        a.recipient.name,
        a.recipient.email,
        JSON.stringify(a.evidences),
        a.expiresAt,
        validUntilOf(a.expiresAt),
        a.snapshotId,
        a.mode,
        club,
        issuanceId,
      )
      return changed === 1
    },
    async queueSigning(issuanceId, club) {
      // The issuance's sequence copied, as `signingJobs.enqueueMany` does; an existing job is kept.
      db.run(
        `INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, ?, (SELECT seq FROM issuances WHERE id = ?)) ON CONFLICT DO NOTHING`,
        issuanceId,
        club,
        issuanceId,
      )
    },
    async insert(r) {
      db.run(
        `INSERT INTO reissues (club, issuance_id, previous_issuance_id, reason, awarded_at, reissued_at) VALUES (?, ?, ?, ?, ?, ?)`,
        r.club,
        r.issuanceId,
        r.previousIssuanceId,
        r.reason,
        r.awardedAt,
        r.reissuedAt,
      )
    },
    async listByIssuances(club, issuanceIds) {
      if (issuanceIds.length === 0) return []
      const ids = JSON.stringify(issuanceIds)
      return db
        .all(
          `SELECT * FROM reissues WHERE club = ? AND (issuance_id IN (SELECT value FROM json_each(?))
             OR previous_issuance_id IN (SELECT value FROM json_each(?))) ORDER BY n`,
          club,
          ids,
          ids,
        )
        .map(toReissue)
    },
    async supersede(next, previousJwt, now) {
      // One writer at a time (BEGIN IMMEDIATE): the read and the writes below cannot interleave with another unit's.
      const current = db.get('SELECT jwt, proof, proof_lease_until, issuance_id FROM credentials WHERE id = ?', next.id)
      if (!current || str(current.jwt) !== previousJwt || num(current.issuance_id) !== next.issuanceId) return 'outdated'
      if (current.proof === null && current.proof_lease_until !== null && num(current.proof_lease_until) >= now) return 'proving'
      db.run(
        `INSERT INTO credential_versions (id, version, issuance_id, club, jwt, issued_at, valid_until, status_list_id, status_list_index, proof)
         SELECT id, 1 + coalesce((SELECT max(version) FROM credential_versions WHERE id = ?), 0), issuance_id, club, jwt, issued_at,
           valid_until, status_list_id, status_list_index, proof
         FROM credentials WHERE id = ?`,
        next.id,
        next.id,
      )
      db.run(
        `UPDATE credentials SET jwt = ?, issued_at = ?, valid_until = ?, proof = NULL, proof_lease_until = NULL, proof_attempts = 0, proof_error = NULL
         WHERE id = ?`,
        next.jwt,
        next.issuedAt,
        next.validUntil,
        next.id,
      )
      return 'superseded'
    },
    async listEarlierVersions(credentialId) {
      return db.all('SELECT * FROM credential_versions WHERE id = ? ORDER BY version DESC', credentialId).map(toCredentialVersion)
    },
  }
}
