import { consecutiveIds, num, rowsAtOnce, str, clubPage, type Database } from './database.ts'
import type { ClubEvent, EventStore } from '../../core/ports/storage.ts'
import type { SqliteRow } from './driver.ts'

const toEvent = (row: SqliteRow): ClubEvent => ({
  id: num(row.id),
  club: str(row.club),
  type: str(row.type) as ClubEvent['type'],
  subject: { type: str(row.subject_type) as ClubEvent['subject']['type'], id: str(row.subject_id) },
  occurredAt: num(row.occurred_at),
})

export function createEventStore(db: Database): EventStore {
  const insertMany = rowsAtOnce(db, 'INSERT INTO events (club, type, subject_type, subject_id, occurred_at) VALUES', '(?, ?, ?, ?, ?)')
  return {
    async append(event) {
      const row = db.get(
        'INSERT INTO events (club, type, subject_type, subject_id, occurred_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
        event.club,
        event.type,
        event.subject.type,
        event.subject.id,
        event.occurredAt,
      )
      return num(row!.id)
    },
    async appendMany(events) {
      return consecutiveIds(insertMany.run(events, (event) => [event.club, event.type, event.subject.type, event.subject.id, event.occurredAt]))
    },
    async list(club, page) {
      const rows = clubPage(db, 'events', club, page)
      return rows.map(toEvent)
    },
  }
}
