import type { Database } from './database.ts'
import type { ShareViewStore } from '../../core/ports/storage.ts'
import { num } from '../shared/sql-values.ts'

export function createShareViewStore({ sql }: Database): ShareViewStore {
  return {
    async add(counts) {
      // In credential order, so that two nodes adding the same credentials lock their rows in one order.
      for (const { credentialId, views, lastViewedAt } of [...counts].sort((a, b) => (a.credentialId < b.credentialId ? -1 : 1))) {
        await sql`INSERT INTO share_views (credential_id, views, last_viewed_at) VALUES (${credentialId}, ${views}, ${lastViewedAt})
          ON CONFLICT (credential_id) DO UPDATE SET views = share_views.views + excluded.views,
            last_viewed_at = greatest(share_views.last_viewed_at, excluded.last_viewed_at)`
      }
    },
    async find(credentialId) {
      const [row] = await sql`SELECT views, last_viewed_at FROM share_views WHERE credential_id = ${credentialId}`
      return row ? { views: num(row.views), lastViewedAt: num(row.last_viewed_at) } : null
    },
  }
}
