import type { Database } from './database.ts'
import type { StatusListStore } from '../../core/ports/storage.ts'
import { toStatusList } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createStatusListStore({ sql, lock }: Database): StatusListStore {
  return {
    async insert(list) {
      // Claims run as concurrent units, and each may open a list. The lock orders list creations, so
      // that a unit that reads the club's lists after opening one also sees every list opened before
      // (core tells the first list by its id: two lists each believed first would be two URLs for one).
      await lock('status-lists')
      const [row] = await sql`INSERT INTO status_lists (club, purpose, size, seed, created_at)
        VALUES (${list.club}, ${list.purpose}, ${list.size}, ${list.seed}, ${list.createdAt}) RETURNING *`
      return toStatusList(row!)
    },
    async current(club, purpose) {
      const [row] = await sql`SELECT * FROM status_lists WHERE club = ${club} AND purpose = ${purpose} ORDER BY id DESC LIMIT 1`
      return row ? toStatusList(row) : null
    },
    async listByClub(club) {
      return (await sql`SELECT * FROM status_lists WHERE club = ${club} ORDER BY id`).map(toStatusList)
    },
    async takeSlots(listId, count) {
      // One statement: the CTE locks the row (waiting for a concurrent taker to commit, then reading
      // its result), and the update advances `allocated` from exactly the value it returns as `first`.
      const [row] = await sql`WITH taken AS (
          SELECT id, allocated AS first, least(${count}::int4, size - allocated) AS count
          FROM status_lists WHERE id = ${listId} AND allocated < size FOR UPDATE)
        UPDATE status_lists s SET allocated = taken.first + taken.count FROM taken WHERE s.id = taken.id
        RETURNING taken.first, taken.count`
      return row ? { first: num(row.first), count: num(row.count) } : null
    },
  }
}
