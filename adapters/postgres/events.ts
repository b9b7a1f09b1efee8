import { num, str, type Database, type Row } from './database.ts'
import type { ClubEvent, EventStore } from '../../core/ports/storage.ts'

const toEvent = (row: Row): ClubEvent => ({
  id: num(row.id),
  club: str(row.club),
  type: str(row.type) as ClubEvent['type'],
  subject: { type: str(row.subject_type) as ClubEvent['subject']['type'], id: str(row.subject_id) },
  occurredAt: num(row.occurred_at),
})

export function createEventStore({ sql, lock }: Database): EventStore {
  return {
    async append(event) {
      // The feed's cursor relies on ids committing in increasing order: taken under the unit lock only.
      await lock('unit')
      const [row] = await sql`INSERT INTO events (club, type, subject_type, subject_id, occurred_at)
        VALUES (${event.club}, ${event.type}, ${event.subject.type}, ${event.subject.id}, ${event.occurredAt}) RETURNING id`
      return num(row!.id)
    },
    async list(club, { limit, beforeId }) {
      const rows =
        beforeId === null
          ? await sql`SELECT * FROM events WHERE club = ${club} ORDER BY id DESC LIMIT ${limit}`
          : await sql`SELECT * FROM events WHERE club = ${club} AND id < ${beforeId} ORDER BY id DESC LIMIT ${limit}`
      return rows.map(toEvent)
    },
  }
}
