import { chunksOf, type Database } from './database.ts'
import type { CredentialStore } from '../../core/ports/storage.ts'
import { proofColumn, toCredential } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createCredentialStore({ sql }: Database): CredentialStore {
  return {
    async insertMany(credentials) {
      // DO NOTHING: a credential that would conflict (a job signed twice after its lease ran out) is
      // skipped without aborting the unit, which goes on with the other credentials of its round.
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
          proof: proofColumn(c.proof),
        }))
        const inserted = await sql`INSERT INTO credentials
          ${sql(rows, 'id', 'issuance_id', 'club', 'jwt', 'issued_at', 'valid_until', 'status_list_id', 'status_list_index', 'proof')}
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
    async claimUnproven(now, leaseMs, limit) {
      // SKIP LOCKED, as the signing queue's claim: workers claiming at once pass over the credentials
      // another claim holds instead of waiting for it, and none returns one another leased.
      const rows = await sql`UPDATE credentials SET proof_lease_until = ${now + leaseMs}, proof_attempts = proof_attempts + 1
        WHERE id = ANY(ARRAY(
          SELECT id FROM credentials WHERE proof IS NULL AND (proof_lease_until IS NULL OR proof_lease_until < ${now})
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED))
        RETURNING *`
      return [...rows]
        .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1))
        .map((row) => ({ credential: toCredential(row), attempts: num(row.proof_attempts) }))
    },
    async releaseUnproven(ids, error, retryAt) {
      if (ids.length === 0) return
      // A lease that ends at `retryAt - 1` makes the credential claimable from `retryAt` on.
      await sql`UPDATE credentials SET proof_lease_until = ${retryAt - 1}, proof_error = ${error}
        WHERE id = ANY(${ids}::text[]) AND proof IS NULL`
    },
    async storeProofs(proofs) {
      if (proofs.length === 0) return 0
      const updated = await sql`UPDATE credentials c SET proof = p.proof
        FROM unnest(${proofs.map((p) => p.id)}::text[], ${proofs.map((p) => proofColumn(p.proof))}::text[]) AS p(id, proof)
        WHERE c.id = p.id AND c.proof IS NULL`
      return updated.count
    },
  }
}
