import { num, str, type Database } from './database.ts'
import type { StatusList, StatusListStore } from '../../core/ports/storage.ts'
import type { SqliteRow } from './driver.ts'

const toList = (row: SqliteRow): StatusList => ({
  id: num(row.id),
  club: str(row.club),
  purpose: 'revocation',
  size: num(row.size),
  seed: str(row.seed),
  allocated: num(row.allocated),
  createdAt: num(row.created_at),
})

export function createStatusListStore(db: Database): StatusListStore {
  return {
    async insert(list) {
      return toList(
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
      return row ? toList(row) : null
    },
    async listByClub(club) {
      return db.all('SELECT * FROM status_lists WHERE club = ? ORDER BY id', club).map(toList)
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
