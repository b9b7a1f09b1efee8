import { consecutiveIds, rowsAtOnce, clubPage, type Database } from './database.ts'
import type { EventStore } from '../../core/ports/storage.ts'
import { toClubEvent } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createEventStore(db: Database): EventStore {
  const insertMany = rowsAtOnce(db, 'INSERT INTO events (club, type, subject_type, subject_id, occurred_at, previous_issuance_id) VALUES', '(?, ?, ?, ?, ?, ?)')
  return {
    async append(event) {
      const row = db.get(
        'INSERT INTO events (club, type, subject_type, subject_id, occurred_at, previous_issuance_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
        event.club,
        event.type,
        event.subject.type,
        event.subject.id,
        event.occurredAt,
        event.previousIssuanceId ?? null,
      )
      return num(row!.id)
    },
    async appendMany(events) {
      return consecutiveIds(
        insertMany.run(events, (event) => [event.club, event.type, event.subject.type, event.subject.id, event.occurredAt, event.previousIssuanceId ?? null]),
      )
    },
    async listBySubject(club, subject, types, limit) {
      if (types.length === 0) return []
      const rows = db.all(
        `SELECT * FROM events WHERE club = ? AND subject_type = ? AND subject_id = ? AND type IN (${types.map(() => '?').join(', ')})
         ORDER BY id DESC LIMIT ?`,
        club,
        subject.type,
        subject.id,
        ...types,
        limit,
      )
      return rows.map(toClubEvent)
    },
    async list(club, page) {
      const rows = clubPage(db, 'events', club, page)
      return rows.map(toClubEvent)
    },
  }
}
