import { chunksOf, idsInOrder, type Database } from './database.ts'
import type { EventStore } from '../../core/ports/storage.ts'
import { toClubEvent } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createEventStore({ sql, lockClubs }: Database): EventStore {
  return {
    async append(event) {
      // The feed's cursor relies on a club's ids committing in increasing order: taken under its lock only.
      await lockClubs([event.club], 'feed')
      const [row] = await sql`INSERT INTO events (club, type, subject_type, subject_id, occurred_at, previous_issuance_id)
        VALUES (${event.club}, ${event.type}, ${event.subject.type}, ${event.subject.id}, ${event.occurredAt}, ${event.previousIssuanceId ?? null})
        RETURNING id`
      return num(row!.id)
    },
    async appendMany(events) {
      await lockClubs(
        events.map((event) => event.club),
        'feed',
      )
      const ids: number[] = []
      for (const chunk of chunksOf(events)) {
        const rows = chunk.map((event) => ({
          club: event.club,
          type: event.type,
          subject_type: event.subject.type,
          subject_id: event.subject.id,
          occurred_at: event.occurredAt,
          previous_issuance_id: event.previousIssuanceId ?? null,
        }))
        ids.push(
          ...idsInOrder(
            await sql`INSERT INTO events ${sql(rows, 'club', 'type', 'subject_type', 'subject_id', 'occurred_at', 'previous_issuance_id')} RETURNING id`,
          ),
        )
      }
      return ids
    },
    async listBySubject(club, subject, types, limit) {
      const rows = await sql`SELECT * FROM events
        WHERE club = ${club} AND subject_type = ${subject.type} AND subject_id = ${subject.id} AND type = ANY(${[...types]}::text[])
        ORDER BY id DESC LIMIT ${limit}`
      return rows.map(toClubEvent)
    },
    async list(club, { limit, beforeId }) {
      const rows =
        beforeId === null
          ? await sql`SELECT * FROM events WHERE club = ${club} ORDER BY id DESC LIMIT ${limit}`
          : await sql`SELECT * FROM events WHERE club = ${club} AND id < ${beforeId} ORDER BY id DESC LIMIT ${limit}`
      return rows.map(toClubEvent)
    },
  }
}
