import type { Database } from './database.ts'
import type { ExpiryStore } from '../../core/ports/storage.ts'
import { toIssuance } from '../shared/rows.ts'
import { json, num, str } from '../shared/sql-values.ts'

export function createExpiryStore({ sql }: Database): ExpiryStore {
  return {
    async position(sweep) {
      const [row] = await sql`SELECT at, seq FROM expiry_sweeps WHERE name = ${sweep}`
      return row ? { at: num(row.at), sequence: num(row.seq) } : null
    },
    async advance(sweep, { at, sequence }) {
      // Only forward: two nodes' sweeps may finish in either order.
      await sql`INSERT INTO expiry_sweeps (name, at, seq) VALUES (${sweep}, ${at}, ${sequence})
        ON CONFLICT (name) DO UPDATE SET at = excluded.at, seq = excluded.seq
        WHERE (excluded.at, excluded.seq) > (expiry_sweeps.at, expiry_sweeps.seq)`
    },
    async listIssuedAfter(afterSequence, limit) {
      return (await sql`SELECT * FROM issuances WHERE seq > ${afterSequence} ORDER BY seq LIMIT ${limit}`).map(toIssuance)
    },
    async listValidUntil(after, until, limit) {
      const rows = await sql`SELECT * FROM issuances
        WHERE valid_until IS NOT NULL AND revoked_at IS NULL AND (valid_until, seq) > (${after.at}, ${after.sequence}) AND valid_until <= ${until}
        ORDER BY valid_until, seq LIMIT ${limit}`
      return rows.map(toIssuance)
    },
    async recordNotice(issuanceId, notice, at) {
      const inserted = await sql`INSERT INTO issuance_notices (issuance_id, notice, at) VALUES (${issuanceId}, ${notice}, ${at})
        ON CONFLICT DO NOTHING RETURNING 1`
      return inserted.length > 0
    },
    async listNotices(issuanceId) {
      const rows = await sql`SELECT notice, at FROM issuance_notices WHERE issuance_id = ${issuanceId} ORDER BY at, notice`
      return rows.map((row) => ({ notice: str(row.notice), at: num(row.at) }))
    },
    async listTemplatesWithReminders() {
      const rows = await sql`SELECT id, club, expiry_reminders FROM achievements WHERE expiry_reminders <> '[]' ORDER BY id`
      return rows.map((row) => ({ id: num(row.id), club: str(row.club), expiryReminders: json<string[]>(row.expiry_reminders) }))
    },
  }
}
