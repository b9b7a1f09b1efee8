import type { Database } from './database.ts'
import type { ActivityStore } from '../../core/ports/storage.ts'
import { num } from '../shared/sql-values.ts'

export function createActivityStore({ sql }: Database): ActivityStore {
  return {
    async weekly(club, from, weekMs, weeks) {
      const until = from + weekMs * weeks
      const series = (rows: readonly Record<string, unknown>[]) => {
        const counts = Array<number>(weeks).fill(0)
        for (const row of rows) counts[num(row.week)] = num(row.n)
        return counts
      }
      const [issued, claimed, expiring] = await Promise.all([
        sql`SELECT (created_at - ${from}::int8) / ${weekMs}::int8 AS week, count(*) AS n FROM issuances
          WHERE club = ${club} AND created_at >= ${from} AND created_at < ${until} GROUP BY week`,
        sql`SELECT (at - ${from}::int8) / ${weekMs}::int8 AS week, count(*) AS n FROM issuance_claims
          WHERE club = ${club} AND first AND at >= ${from} AND at < ${until} GROUP BY week`,
        sql`SELECT (valid_until - ${from}::int8) / ${weekMs}::int8 AS week, count(*) AS n FROM issuances
          WHERE club = ${club} AND valid_until IS NOT NULL AND revoked_at IS NULL AND valid_until >= ${from} AND valid_until < ${until} GROUP BY week`,
      ])
      return { issued: series(issued), claimed: series(claimed), expiring: series(expiring) }
    },
  }
}
