import type { Database } from './database.ts'
import type { ActivityStore } from '../../core/ports/storage.ts'
import { num } from '../shared/sql-values.ts'

export function createActivityStore(db: Database): ActivityStore {
  return {
    async weekly(club, from, weekMs, weeks) {
      const until = from + weekMs * weeks
      const series = (sql: string) => {
        const counts = Array<number>(weeks).fill(0)
        for (const row of db.all(sql, from, weekMs, club, from, until)) counts[num(row.week)] = num(row.n)
        return counts
      }
      return {
        issued: series(
          'SELECT CAST((created_at - ?) / ? AS INTEGER) AS week, count(*) AS n FROM issuances INDEXED BY issuances_by_created WHERE club = ? AND created_at >= ? AND created_at < ? GROUP BY week',
        ),
        claimed: series(
          'SELECT CAST((at - ?) / ? AS INTEGER) AS week, count(*) AS n FROM issuance_claims INDEXED BY issuance_claims_by_time WHERE club = ? AND first = 1 AND at >= ? AND at < ? GROUP BY week',
        ),
        expiring: series(
          `SELECT CAST((valid_until - ?) / ? AS INTEGER) AS week, count(*) AS n FROM issuances INDEXED BY issuances_by_valid_until
           WHERE club = ? AND valid_until IS NOT NULL AND revoked_at IS NULL AND valid_until >= ? AND valid_until < ? GROUP BY week`,
        ),
      }
    },
  }
}
