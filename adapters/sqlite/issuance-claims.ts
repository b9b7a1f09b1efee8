import type { Database } from './database.ts'
import type { IssuanceClaimStore } from '../../core/ports/storage.ts'
import { toIssuanceClaim } from '../shared/claim-rows.ts'

// The issuance's sequence beside its id: `claimed=true` pages walk the club's first claims in issue order.
const INSERT = 'INSERT INTO issuance_claims (issuance_id, issuance_seq, club, via, format, at, first) SELECT id, seq, ?, ?, ?, ?, ? FROM issuances WHERE id = ?'

export function createIssuanceClaimStore(db: Database): IssuanceClaimStore {
  return {
    async record({ issuanceId, club, via, format, at }) {
      // The first claim is the one the partial unique index lets in; any other is stored as a later one.
      const first = db.run(`${INSERT} ON CONFLICT DO NOTHING`, club, via, format, at, 1, issuanceId) > 0
      if (!first) db.run(INSERT, club, via, format, at, 0, issuanceId)
      return first
    },
    async listByIssuance(issuanceId) {
      return db.all('SELECT * FROM issuance_claims WHERE issuance_id = ? ORDER BY at, id', issuanceId).map(toIssuanceClaim)
    },
  }
}
