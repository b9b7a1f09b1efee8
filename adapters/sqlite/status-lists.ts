import type { Database } from './database.ts'
import type { StatusListStore } from '../../core/ports/storage.ts'
import { toStatusList } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createStatusListStore(db: Database): StatusListStore {
  return {
    async insert(list) {
      return toStatusList(
        db.get(
          'INSERT INTO status_lists (club, purpose, size, seed, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
          list.club,
          list.purpose,
          list.size,
          list.seed,
          list.createdAt,
        )!,
      )
    },
    async current(club, purpose) {
      const row = db.get('SELECT * FROM status_lists WHERE club = ? AND purpose = ? ORDER BY id DESC LIMIT 1', club, purpose)
      return row ? toStatusList(row) : null
    },
    async listByClub(club) {
      return db.all('SELECT * FROM status_lists WHERE club = ? ORDER BY id', club).map(toStatusList)
    },
    async takeSlots(listId, count) {
      // Compare-and-set on `allocated`: safe even outside a unit of work, where another process may race.
      for (;;) {
        const row = db.get('SELECT allocated, size FROM status_lists WHERE id = ?', listId)
        if (!row || num(row.allocated) >= num(row.size)) return null
        const first = num(row.allocated)
        const taken = Math.min(count, num(row.size) - first)
        if (db.run('UPDATE status_lists SET allocated = ? WHERE id = ? AND allocated = ?', first + taken, listId, first) === 1) {
          return { first, count: taken }
        }
      }
    },
  }
}
