import type { Database } from './database.ts'
import type { ResendStore } from '../../core/ports/storage.ts'
import { toResendRequest } from '../shared/resend-rows.ts'

export function createResendStore({ sql }: Database): ResendStore {
  return {
    async insert(request) {
      const [row] = await sql`INSERT INTO issuance_resends (club, issuance_id, requested_at, mailed_at)
        VALUES (${request.club}, ${request.issuanceId}, ${request.requestedAt}, ${request.mailedAt}) RETURNING *`
      return toResendRequest(row!)
    },
    async listSince(club, issuanceId, since) {
      const rows = await sql`SELECT * FROM issuance_resends
        WHERE issuance_id = ${issuanceId} AND club = ${club} AND requested_at > ${since} ORDER BY requested_at, id`
      return rows.map(toResendRequest)
    },
    async listMailable(limit) {
      const rows = await sql`SELECT r.* FROM issuance_resends r
        WHERE r.mailed_at IS NULL AND EXISTS (SELECT 1 FROM credentials c WHERE c.issuance_id = r.issuance_id)
        ORDER BY r.id LIMIT ${limit}`
      return rows.map(toResendRequest)
    },
    async markMailed(id, mailedAt) {
      // READ COMMITTED: a second worker's update waits for the first and then finds mailed_at set.
      const rows = await sql`UPDATE issuance_resends SET mailed_at = ${mailedAt} WHERE id = ${id} AND mailed_at IS NULL RETURNING id`
      return rows.length === 1
    },
  }
}
