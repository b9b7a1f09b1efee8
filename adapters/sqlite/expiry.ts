import type { Database } from './database.ts'
import type { ExpiryStore } from '../../core/ports/storage.ts'
import { toIssuance } from '../shared/rows.ts'
import { json, num, str } from '../shared/sql-values.ts'

export function createExpiryStore(db: Database): ExpiryStore {
  return {
    async position(sweep) {
      const row = db.get('SELECT at, seq FROM expiry_sweeps WHERE name = ?', sweep)
      return row ? { at: num(row.at), sequence: num(row.seq) } : null
    },
    async advance(sweep, { at, sequence }) {
      db.run(
        `INSERT INTO expiry_sweeps (name, at, seq) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET at = excluded.at, seq = excluded.seq
         WHERE excluded.at > expiry_sweeps.at OR (excluded.at = expiry_sweeps.at AND excluded.seq > expiry_sweeps.seq)`,
        sweep,
        at,
        sequence,
      )
    },
    async listIssuedAfter(afterSequence, limit) {
      return db.all('SELECT * FROM issuances WHERE seq > ? ORDER BY seq LIMIT ?', afterSequence, limit).map(toIssuance)
    },
    async listValidUntil(after, until, limit) {
      return db
        .all(
          `SELECT * FROM issuances INDEXED BY issuances_by_valid_until
           WHERE valid_until IS NOT NULL AND revoked_at IS NULL AND (valid_until, seq) > (?, ?) AND valid_until <= ?
           ORDER BY valid_until, seq LIMIT ?`,
          after.at,
          after.sequence,
          until,
          limit,
        )
        .map(toIssuance)
    },
    async recordNotice(issuanceId, notice, at) {
      return db.run('INSERT INTO issuance_notices (issuance_id, notice, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', issuanceId, notice, at) > 0
    },
    async listNotices(issuanceId) {
      return db
        .all('SELECT notice, at FROM issuance_notices WHERE issuance_id = ? ORDER BY at, notice', issuanceId)
        .map((row) => ({ notice: str(row.notice), at: num(row.at) }))
    },
    async listTemplatesWithReminders() {
      return db
        .all("SELECT id, club, expiry_reminders FROM achievements WHERE expiry_reminders <> '[]' ORDER BY id")
        .map((row) => ({ id: num(row.id), club: str(row.club), expiryReminders: json<string[]>(row.expiry_reminders) }))
    },
  }
}
