import type { Database } from './database.ts'
import type { ShareViewStore } from '../../core/ports/storage.ts'
import { num } from '../shared/sql-values.ts'

export function createShareViewStore(db: Database): ShareViewStore {
  return {
    async add(counts) {
      for (const { credentialId, views, lastViewedAt } of counts) {
        db.run(
          `INSERT INTO share_views (credential_id, views, last_viewed_at) VALUES (?, ?, ?)
           ON CONFLICT (credential_id) DO UPDATE SET views = views + excluded.views, last_viewed_at = max(last_viewed_at, excluded.last_viewed_at)`,
          credentialId,
          views,
          lastViewedAt,
        )
      }
    },
    async find(credentialId) {
      const row = db.get('SELECT views, last_viewed_at FROM share_views WHERE credential_id = ?', credentialId)
      return row ? { views: num(row.views), lastViewedAt: num(row.last_viewed_at) } : null
    },
  }
}
