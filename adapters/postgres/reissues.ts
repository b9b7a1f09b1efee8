import type { Database } from './database.ts'
import type { ReissueStore } from '../../core/ports/storage.ts'
import { toCredentialVersion, toReissue } from '../shared/reissue-rows.ts'
import { num, str } from '../shared/sql-values.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import { SIGNING_JOBS_CHANNEL } from './signing-jobs.ts'

export function createReissueStore({ sql }: Database): ReissueStore {
  return {
    async amend(club, issuanceId, a) {
      const updated = await sql`UPDATE issuances SET external_user_id = ${a.recipient.externalUserId}, recipient_name = ${a.recipient.name},
          recipient_email = ${a.recipient.email}, evidences = ${JSON.stringify(a.evidences)}, expires_at = ${a.expiresAt},
          valid_until = ${validUntilOf(a.expiresAt)}, snapshot_id = ${a.snapshotId}, mode = ${a.mode}
        WHERE club = ${club} AND id = ${issuanceId} AND revoked_at IS NULL`
      return updated.count === 1
    },
    async queueSigning(issuanceId, club) {
      // The conflict arm writes nothing new but locks an existing job's row until this unit commits, so a
      // worker's unit removing that job waits for it and then reads the amended issuance (sign-pending's
      // requeueAmended); and a unit removing the job first makes this insert wait, then insert anew.
      await sql`INSERT INTO signing_jobs (issuance_id, club, issuance_seq)
        SELECT ${issuanceId}, ${club}, seq FROM issuances WHERE id = ${issuanceId}
        ON CONFLICT (issuance_id) DO UPDATE SET club = signing_jobs.club`
      await sql`SELECT pg_notify(${SIGNING_JOBS_CHANNEL}, current_schema())`
    },
    async insert(r) {
      await sql`INSERT INTO reissues (club, issuance_id, previous_issuance_id, reason, awarded_at, reissued_at)
        VALUES (${r.club}, ${r.issuanceId}, ${r.previousIssuanceId}, ${r.reason}, ${r.awardedAt}, ${r.reissuedAt})`
    },
    async listByIssuances(club, issuanceIds) {
      if (issuanceIds.length === 0) return []
      const rows = await sql`SELECT * FROM reissues WHERE club = ${club}
        AND (issuance_id = ANY(${issuanceIds}::int8[]) OR previous_issuance_id = ANY(${issuanceIds}::int8[])) ORDER BY n`
      return rows.map(toReissue)
    },
    async supersede(next, previousJwt, now) {
      // FOR UPDATE: of units superseding one credential at once, the second reads the row as the first left it.
      const [current] = await sql`SELECT jwt, proof, proof_lease_until, issuance_id FROM credentials WHERE id = ${next.id} FOR UPDATE`
      if (!current || str(current.jwt) !== previousJwt || num(current.issuance_id) !== next.issuanceId) return 'outdated'
      if (current.proof === null && current.proof_lease_until !== null && num(current.proof_lease_until) >= now) return 'proving'
      await sql`INSERT INTO credential_versions (id, version, issuance_id, club, jwt, issued_at, valid_until, status_list_id, status_list_index, proof)
        SELECT id, 1 + coalesce((SELECT max(version) FROM credential_versions WHERE id = ${next.id}), 0), issuance_id, club, jwt, issued_at,
          valid_until, status_list_id, status_list_index, proof
        FROM credentials WHERE id = ${next.id}`
      await sql`UPDATE credentials SET jwt = ${next.jwt}, issued_at = ${next.issuedAt}, valid_until = ${next.validUntil}, proof = NULL,
          proof_lease_until = NULL, proof_attempts = 0, proof_error = NULL
        WHERE id = ${next.id}`
      return 'superseded'
    },
    async listEarlierVersions(credentialId) {
      return (await sql`SELECT * FROM credential_versions WHERE id = ${credentialId} ORDER BY version DESC`).map(toCredentialVersion)
    },
  }
}
