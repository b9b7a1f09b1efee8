import type { Database } from './database.ts'
import type { IssuanceClaimStore } from '../../core/ports/storage.ts'
import { toIssuanceClaim } from '../shared/claim-rows.ts'

export function createIssuanceClaimStore({ sql }: Database): IssuanceClaimStore {
  return {
    async record({ issuanceId, club, via, format, at }) {
      // The first claim is the one the partial unique index lets in (a concurrent one waits for it and
      // then does nothing); any other is stored as a later one.
      // The issuance's sequence beside its id: `claimed=true` pages walk the club's first claims in issue order.
      const first = await sql`INSERT INTO issuance_claims (issuance_id, issuance_seq, club, via, format, at, first)
        SELECT id, seq, ${club}, ${via}, ${format}, ${at}, true FROM issuances WHERE id = ${issuanceId} ON CONFLICT DO NOTHING RETURNING 1`
      if (first.length > 0) return true
      await sql`INSERT INTO issuance_claims (issuance_id, issuance_seq, club, via, format, at, first)
        SELECT id, seq, ${club}, ${via}, ${format}, ${at}, false FROM issuances WHERE id = ${issuanceId}`
      return false
    },
    async listByIssuance(issuanceId) {
      return (await sql`SELECT * FROM issuance_claims WHERE issuance_id = ${issuanceId} ORDER BY at, id`).map(toIssuanceClaim)
    },
  }
}
