import type { Database } from './database.ts'
import type { ResendStore } from '../../core/ports/storage.ts'
import { toResendRequest } from '../shared/resend-rows.ts'

export function createResendStore(db: Database): ResendStore {
  return {
    async insert(request) {
      const row = db.get(
        'INSERT INTO issuance_resends (club, issuance_id, requested_at, mailed_at) VALUES (?, ?, ?, ?) RETURNING *',
        request.club,
        request.issuanceId,
        request.requestedAt,
        request.mailedAt,
      )
      return toResendRequest(row!)
    },
    async listSince(club, issuanceId, since) {
      return db
        .all('SELECT * FROM issuance_resends WHERE issuance_id = ? AND club = ? AND requested_at > ? ORDER BY requested_at, id', issuanceId, club, since)
        .map(toResendRequest)
    },
    async listMailable(limit) {
      return db
        .all(
          `SELECT r.* FROM issuance_resends r
           WHERE r.mailed_at IS NULL AND EXISTS (SELECT 1 FROM credentials c WHERE c.issuance_id = r.issuance_id)
           ORDER BY r.id LIMIT ?`,
          limit,
        )
        .map(toResendRequest)
    },
    async markMailed(id, mailedAt) {
      return db.run('UPDATE issuance_resends SET mailed_at = ? WHERE id = ? AND mailed_at IS NULL', mailedAt, id) === 1
    },
  }
}
